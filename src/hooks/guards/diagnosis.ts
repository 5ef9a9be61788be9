/**
 * Why a signature guard refused a request: the cause, a sentence for a person, and details
 * (docs/diagnoses.md lists the causes). Never carries a secret or an expected signature.
 */
export const DIAGNOSIS_CAUSES = ["wrong_secret", "body_changed", "clock_skew", "wrong_url", "encoding", "unknown", "skipped"] as const;
export type DiagnosisCause = (typeof DIAGNOSIS_CAUSES)[number];

/** The diagnosis of a refusal past its batch's budget (a flood of bad signatures): not worked out, not null. */
export const SKIPPED_DIAGNOSIS = {
  cause: "skipped",
  message: "Not diagnosed: too many refused requests at once for the diagnosis budget.",
  tried: [],
} as const satisfies Diagnosis;

/** The diagnosis as stored and as the API shows it (a refusal's `diagnosis`; hooks/routes/refusals.ts has its model). */
export type Diagnosis = {
  cause: DiagnosisCause;
  message: string;
  /** wrong_secret: the guard whose secret made the signature. */
  guard?: string;
  /** clock_skew: how far the signed timestamp is from now, in seconds, and which way. */
  skew_seconds?: number;
  direction?: "past" | "future";
  /** wrong_url: the URL the sender signed. */
  url?: string;
  /** body_changed: what the body went through; encoding: what the signature was written in. */
  change?: string;
  /** The causes tested, in order. */
  tried: string[];
};
