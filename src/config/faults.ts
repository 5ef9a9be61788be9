import { Type as t, type Static } from "@sinclair/typebox";
import { DURATION_PATTERN, parseDuration } from "../lib/units";

/**
 * `[[translate.faults]]`: rules that make the translation API misbehave on purpose, for testing a
 * client's retries. The admin API's PUT /admin/v1/faults takes the same rules.
 */
/**
 * What a bad value is told, in the same words by check-config (which reads `problem`) and by
 * PUT /admin/v1/faults (whose checker, translate/check.ts, reads `error`).
 */
const says = (text: string) => ({ problem: text, error: text });
const duration = (description: string) => t.String({ pattern: DURATION_PATTERN, description, ...says('must be a duration such as "200ms", "2s"') });

export const ROUTE_PATTERN = "^((GET|POST|PUT|DELETE|PATCH|HEAD) )?/[A-Za-z0-9_/{}:*.-]*$";
/** Longest added latency. */
export const MAX_LATENCY_MS = 60_000;

export const FaultRule = t.Object(
  {
    revision: t.Optional(t.Union([t.Literal("A"), t.Literal("B")], { description: "A (/v1) or B (/api/v1); both when absent", ...says('must be "A" or "B"') })),
    route: t.Optional(
      t.String({
        pattern: ROUTE_PATTERN,
        maxLength: 200,
        description: 'method and path under the revision\'s root, e.g. "POST /translate", "GET /orders/{id}", "/orders*"; every route when absent',
        ...says('must be a path under the revision, optionally after a method: "POST /translate", "/orders/{id}"'),
      }),
    ),
    error: t.Optional(
      t.Union([t.Literal(429), t.Literal(500), t.Literal(503)], {
        description: "answer this status in the API's error body instead of running the request",
        ...says("must be 429, 500 or 503"),
      }),
    ),
    retry_after: t.Optional(duration("Retry-After of a 429 or 503 (1s by default)")),
    latency: t.Optional(duration("wait this long before answering (at most 60s)")),
    count: t.Optional(
      t.Integer({ minimum: 1, maximum: 1_000_000, description: "apply to the next N matching requests only", ...says("must be an integer from 1") }),
    ),
    rate: t.Optional(
      t.Number({ minimum: 0, maximum: 1, description: "apply to this share of matching requests (0 to 1)", ...says("must be a number from 0 to 1") }),
    ),
    seed: t.Optional(
      t.Integer({
        minimum: 0,
        maximum: 4294967295,
        description: "makes `rate` deterministic: the same seed picks the same requests",
        ...says("must be an integer from 0 to 4294967295"),
      }),
    ),
  },
  { additionalProperties: false, description: "one fault rule" },
);
export type FaultRuleValue = Static<typeof FaultRule>;

/**
 * A rule's durations in what the code uses: the latency in milliseconds (0 without one) and the
 * Retry-After in whole seconds (1 s by default). The rules come from the config and from
 * PUT /admin/v1/faults in the same written form, so both are converted here, beside their schema.
 */
export function faultTimings(rule: FaultRuleValue): { latencyMs: number; retryAfterSeconds: number } {
  return {
    latencyMs: rule.latency === undefined ? 0 : parseDuration(rule.latency)!,
    retryAfterSeconds: Math.ceil(parseDuration(rule.retry_after ?? "1s")! / 1000),
  };
}

/** What the schema cannot say; paths relative to `at`. */
export function faultProblems(rules: readonly FaultRuleValue[], at: string): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  rules.forEach((r, i) => {
    const here = `${at}[${i}]`;
    if (r.error === undefined && r.latency === undefined) problems.push({ path: here, message: "give error, latency or both" });
    if (r.count !== undefined && r.rate !== undefined) problems.push({ path: here, message: "give count or rate, not both" });
    if (r.seed !== undefined && r.rate === undefined) problems.push({ path: `${here}.seed`, message: "a seed needs a rate" });
    if (r.retry_after !== undefined && r.error !== 429 && r.error !== 503)
      problems.push({ path: `${here}.retry_after`, message: "only a 429 or 503 has a Retry-After" });
    if (r.latency !== undefined && parseDuration(r.latency)! > MAX_LATENCY_MS) problems.push({ path: `${here}.latency`, message: "must be at most 60s" });
    // A Retry-After is whole seconds; a day is longer than any client waits.
    const retryAfter = r.retry_after === undefined ? undefined : parseDuration(r.retry_after);
    if (retryAfter !== undefined && !(retryAfter <= 86_400_000)) problems.push({ path: `${here}.retry_after`, message: "must be at most 1d" });
  });
  return problems;
}
