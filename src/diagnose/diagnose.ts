import { compileScheme, type Guard, type GuardInput, type GuardVerdict, type Signing, signingOf } from "../hooks/guards";
import type { Clock } from "../lib/clock";
import type { Diagnosis } from "../hooks/guards";
import { bodyVariants, encodingVariants, urlVariants } from "./variants";

/** How long one refusal's diagnosis may take before it stops and says what it tried. */
export const DIAGNOSIS_BUDGET_MS = 50;

export type DiagnoseDeps = { guards: () => Iterable<Guard>; clock: Clock; budgetMs?: number };

/**
 * Works out why a scheme guard refused a request: each candidate cause is a variant of the request
 * (or of the guard: another guard's key, no tolerance, another public URL) fed through the same
 * scheme's check. Undefined when the guard verifies no signature. Runs after the refusal was
 * answered (hooks/guards/refusals.ts calls it before writing the batch), within a time budget.
 * Keys are compared by the scheme's own constant-time checks and never appear in the result.
 */
export function createDiagnose(deps: DiagnoseDeps) {
  const budget = deps.budgetMs ?? DIAGNOSIS_BUDGET_MS;
  /** `at`: when the request was refused (ms), for a diagnosis run again later; else now. */
  return function diagnose(guardName: string, input: GuardInput, reason: string, at?: number): Diagnosis | undefined {
    const guards = [...deps.guards()];
    const guard = guards.find((g) => g.name === guardName);
    const signing = guard && signingOf(guard);
    if (!signing || signing.scheme.algorithm === "token") return undefined;
    // A signature or header not sent needs no diagnosis: the reason says what is missing.
    if (reason.startsWith("missing ")) return undefined;
    const started = performance.now();
    const tried: string[] = [];
    const over = () => performance.now() - started > budget;
    /** The scheme's own check with other keys, tolerance or public URL; its verdict passes or not. */
    const passes = (i: GuardInput, over: Partial<Signing> & { publicUrl?: string } = {}): boolean => {
      try {
        const check = compileScheme(signing.scheme, over.keys ?? signing.keys, over.toleranceMs ?? 0, {
          ...signing.deps,
          ...(over.deps ?? {}),
          ...("publicUrl" in over ? { publicUrl: over.publicUrl } : {}),
        });
        const v = check(i) as GuardVerdict;
        return v.ok;
      } catch {
        return false;
      }
    };

    // The clock: the signature is valid once the timestamp is not judged.
    tried.push("clock skew");
    if (passes(input)) {
      const seconds = Number(/timestamp is (\d+)s away/.exec(reason)?.[1] ?? "NaN");
      if (!Number.isFinite(seconds)) return { cause: "unknown", message: `The signature is valid; the guard refused: ${reason}.`, tried };
      const now = at ?? deps.clock.now();
      const past = passes(input, { toleranceMs: signing.toleranceMs, deps: { ...signing.deps, clock: { ...deps.clock, now: () => now - seconds * 1000 } } });
      const beyond = Math.max(0, seconds - Math.round(signing.toleranceMs / 1000));
      return {
        cause: "clock_skew",
        message: `The signature is valid but its timestamp is ${seconds}s ${past ? "in the past" : "in the future"}, ${beyond}s beyond the tolerance of ${signing.toleranceMs / 1000}s: a clock is off (the sender's or this machine's), or the delivery was replayed late.`,
        skew_seconds: seconds,
        direction: past ? "past" : "future",
        tried,
      };
    }

    // Another configured key of the same kind: another channel's guard, or an old secret.
    tried.push("other secrets");
    for (const other of guards) {
      if (other.name === guardName || other.kind !== guard.kind) continue;
      const theirs = signingOf(other);
      if (!theirs || theirs.scheme.algorithm === "token" || JSON.stringify(theirs.scheme) !== JSON.stringify(signing.scheme)) continue;
      if (passes(input, { keys: theirs.keys })) {
        return {
          cause: "wrong_secret",
          message: `The signature was made with the secret of guard "${other.name}", not of "${guardName}": the sender is configured with another channel's (or environment's) secret.`,
          guard: other.name,
          tried,
        };
      }
      if (over()) return unknown(tried, true);
    }

    // The body re-serialised on the way (a proxy or a framework).
    tried.push("body re-serialised");
    for (const v of bodyVariants(input)) {
      if (passes({ ...input, body: v.body, ...(v.headers ? { headers: v.headers } : {}) })) {
        return {
          cause: "body_changed",
          message: `The signature matches the body ${v.change}: a proxy or framework changed the body on the way.`,
          change: v.change,
          tried,
        };
      }
      if (over()) return unknown(tried, true);
    }

    // The URL, for schemes that sign it.
    if (/\{url\}|\{path\}|\{query\}/.test(signing.scheme.signed)) {
      tried.push("other URLs");
      for (const v of urlVariants(input, signing.deps.publicUrl)) {
        if (passes({ ...input, url: v.url }, { publicUrl: undefined })) {
          return {
            cause: "wrong_url",
            message: `The signature matches the URL ${v.url} (${v.why}): [server] public_url (or the sender's URL) is wrong.`,
            url: v.url,
            tried,
          };
        }
        if (over()) return unknown(tried, true);
      }
    }

    // Hex written where base64 is read, or the other way round.
    tried.push("hex/base64");
    for (const v of encodingVariants(input.headers, signing.scheme.encoding)) {
      if (passes({ ...input, headers: v.headers })) {
        return {
          cause: "encoding",
          message: `The signature is right but written in ${v.written}; this scheme expects ${signing.scheme.encoding}.`,
          change: v.written,
          tried,
        };
      }
    }
    return unknown(tried, false);
  };
}

function unknown(tried: string[], outOfTime: boolean): Diagnosis {
  return {
    cause: "unknown",
    message: `No known cause: tried ${tried.join(", ")}${outOfTime ? " (stopped at the time budget)" : ""}. The secret is likely one Mailroom does not know, or the content was signed differently.`,
    tried,
  };
}
