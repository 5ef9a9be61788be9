import { Type as t, type Static } from "@sinclair/typebox";
import { DURATION_PATTERN, parseDuration } from "../lib/units";

/**
 * A channel's custom response (what a sender receives) and its deduplication setting, as the TOML
 * file and the management API write them. One schema for both: the API's PUT body is `Response`.
 */
const strict = { additionalProperties: false } as const;
const duration = (description: string) => t.String({ pattern: DURATION_PATTERN, description, problem: 'must be a duration such as "500ms", "2s", "1m"' });

/**
 * An HTTP header name (RFC 9110 token) and a value of visible ASCII, spaces and tabs: a value an HTTP
 * header can carry as it is (a character past Latin-1 made the answer throw after the hook was stored).
 */
export const HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$";
const Headers = t.Record(t.String({ pattern: HEADER_NAME_PATTERN }), t.String({ maxLength: 4096, pattern: "^[\\t\\x20-\\x7e]*$" }), {
  maxProperties: 50,
  additionalProperties: false,
  description: "extra response headers, name to value",
  problem: "must be a table of header names (tokens) to values of visible ASCII characters, spaces and tabs, at most 50",
});

/**
 * Headers a channel's response cannot set: those Bun writes from the body it sends, and those that
 * would act on the dashboard's origin, which the catching endpoint shares (a cookie, a policy, a
 * credentials prompt).
 */
export const RESERVED_HEADERS = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "set-cookie",
  "set-cookie2",
  // A browser prompt for credentials on the dashboard's origin, and a policy pinned on it.
  "www-authenticate",
  "strict-transport-security",
  "content-security-policy",
  "content-security-policy-report-only",
  "x-content-type-options",
  "clear-site-data",
  "service-worker-allowed",
  "refresh",
  "location",
  "link",
]);
/** Longest delay: senders time out long before (GitHub after 10 s). */
export const MAX_DELAY_MS = 5 * 60_000;

const answerFields = {
  status: t.Optional(
    t.Integer({ minimum: 200, maximum: 599, description: "HTTP status the sender gets (200 by default)", problem: "must be an integer from 200 to 599" }),
  ),
  headers: t.Optional(Headers),
  body: t.Optional(
    t.String({ maxLength: 1_048_576, description: 'body the sender gets; {{id}} is replaced by the hook id ("" when not stored); default {"id":"<hook id>"}' }),
  ),
  delay: t.Optional(duration("how long to wait before answering (the hook is already stored); at most 5m")),
  store: t.Optional(t.Boolean({ description: "false: the request is answered but not stored (default true)" })),
};

export const ResponseStep = t.Object(answerFields, { ...strict, description: "one answer of a sequence; fields not given come from the response itself" });

export const ResponseSetting = t.Object(
  {
    ...answerFields,
    sequence: t.Optional(
      t.Array(ResponseStep, {
        maxItems: 100,
        description: "answers for the next requests, one each, in order; then the response's own fields answer every request",
      }),
    ),
  },
  { ...strict, description: "what senders of this channel receive" },
);
export type ResponseSettingValue = Static<typeof ResponseSetting>;
export type ResponseStepValue = Static<typeof ResponseStep>;

/**
 * An answer's delay in milliseconds, undefined when it gives none. A response setting comes from
 * the config, from PUT .../response and from the database in the same written form (and is shown
 * back so), so each source's is converted here, beside its schema.
 */
export function answerDelayMs(answer: ResponseStepValue): number | undefined {
  return answer.delay === undefined ? undefined : parseDuration(answer.delay);
}

const DedupFields = t.Object(
  {
    window: t.String({
      pattern: DURATION_PATTERN,
      default: "24h",
      description: "a repeat of a delivery id within this long of the first is not stored again",
      problem: 'must be a duration such as "1h", "24h", "7d"',
    }),
    header: t.Optional(
      t.String({
        pattern: HEADER_NAME_PATTERN,
        description: "read the delivery id from this header only (default: the known providers' ids)",
        problem: "must be a header name",
      }),
    ),
  },
  { ...strict, description: "deduplication by the provider's delivery id" },
);

/** A channel's dedup setting; loaded, it also holds its window in milliseconds (`window` stays as written: the API shows it). */
export const DedupSetting = t
  .Transform(DedupFields)
  .Decode((s) => ({ ...s, window_ms: parseDuration(s.window)! }))
  .Encode(({ window_ms: _, ...s }) => s);
/** As the file writes it (loaded, it also has window_ms). */
export type DedupSettingValue = Static<typeof DedupSetting>;

/** The longest dedup window. */
export const MAX_DEDUP_WINDOW_MS = 90 * 86_400_000;

type Problem = { path: string; message: string };

/** What the schema cannot say: reserved headers, the longest delay and window. Paths are relative to `at`. */
export function responseProblems(setting: ResponseSettingValue, at: string): Problem[] {
  const problems: Problem[] = [];
  const answer = (a: ResponseStepValue, path: string) => {
    for (const name of Object.keys(a.headers ?? {})) {
      if (RESERVED_HEADERS.has(name.toLowerCase()))
        problems.push({
          path: `${path}.headers.${name}`,
          message: "is reserved (written by the server, or it would act on the dashboard's origin); it cannot be set",
        });
    }
    if (a.delay !== undefined && parseDurationMs(a.delay) > MAX_DELAY_MS) problems.push({ path: `${path}.delay`, message: "must be at most 5m" });
  };
  answer(setting, at);
  setting.sequence?.forEach((step, i) => {
    answer(step, `${at}.sequence[${i}]`);
  });
  return problems;
}

export function dedupProblems(setting: DedupSettingValue, at: string): Problem[] {
  return parseDurationMs(setting.window) > MAX_DEDUP_WINDOW_MS ? [{ path: `${at}.window`, message: "must be at most 90d" }] : [];
}

function parseDurationMs(text: string): number {
  return parseDuration(text) ?? Number.POSITIVE_INFINITY;
}
