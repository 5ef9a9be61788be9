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
 * A rule's durations in milliseconds: the latency (0 without one) and the Retry-After (undefined
 * without one). The rules come from the config and from PUT /admin/v1/faults in the same written
 * form, so both are converted here, beside their schema.
 */
export function faultTimings(rule: FaultRuleValue): { latencyMs: number; retryAfterMs: number | undefined } {
  return {
    latencyMs: rule.latency === undefined ? 0 : parseDuration(rule.latency)!,
    retryAfterMs: rule.retry_after === undefined ? undefined : parseDuration(rule.retry_after),
  };
}
