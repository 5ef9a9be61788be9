/**
 * The interface document's resources (docs of the webhook service: Channel, ChannelStats, Hook,
 * Event), written from its tables as JSON Schema with no other property allowed, and the routes it
 * documents with what each answers. test/helpers/target.ts checks every JSON answer of these routes
 * against them, so every shared suite (in process, executable, PostgreSQL) holds Mailroom to the
 * document: an extension field on a Hook nobody asked for fails the test that got it.
 *
 * Written here, not taken from src/: a model that drifts from the document must not move the check.
 */
import Ajv, { type ValidateFunction } from "ajv";

const NAME = { type: "string", maxLength: 64, pattern: "^[a-z0-9]+(?:[_-][a-z0-9]+)*$" };
const HOOK_ID = { type: "string", pattern: "^[0-7][0-9a-hjkmnp-tv-z]{25}$" };
/** RFC 3339, up to nanoseconds; output is in UTC with Z. */
const TIMESTAMP = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$" };
const COUNT = { type: "string", pattern: "^(0|[1-9][0-9]{0,18})$" };

const strict = (properties: Record<string, unknown>, optional: string[] = []) => ({
  type: "object",
  properties,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  additionalProperties: false,
});

const ChannelStats = strict({ pending: COUNT, handled: COUNT, failed: COUNT, discarded: COUNT });
const Channel = strict({
  name: NAME,
  paused: { type: "boolean" },
  stats: ChannelStats,
  guards: { type: "array", uniqueItems: true, items: NAME },
});
const Event = strict({
  kind: { enum: ["handled", "discarded", "retried", "failed"] },
  actor: { type: "string" },
  message: { type: "string" },
  created_at: TIMESTAMP,
});
const Hook = strict(
  {
    id: HOOK_ID,
    channel: NAME,
    status: { enum: ["pending", "handled", "failed", "discarded"] },
    method: { type: "string" },
    query: { type: "string" },
    headers: { type: "object", additionalProperties: { type: "string" } },
    content_type: { type: "string" },
    body: { type: "string", format: "byte" },
    payload: { type: ["object", "null"] },
    ip: { type: "string" },
    created_at: TIMESTAMP,
    finalized_at: { anyOf: [TIMESTAMP, { type: "null" }] },
    events: { type: "array", items: Event },
  },
  ["payload", "finalized_at"],
);
const Empty = strict({});

const ID = "[0-7][0-9a-hjkmnp-tv-z]{25}";
const CHANNEL = "[^/]+";
/**
 * The document's operations (and the consumer operations it names, ProcessHook and FailHook, with
 * Mailroom's paths, and RedeliverHook, Mailroom's RetryHook for every status): what a 200 answers.
 */
const ROUTES: [method: string, path: RegExp, answer: "Channel" | "Channel[]" | "Hook" | "Hook[]" | "Empty"][] = [
  ["GET", /^\/v1\/channels$/, "Channel[]"],
  ["GET", new RegExp(`^/v1/channels/${CHANNEL}$`), "Channel"],
  ["DELETE", new RegExp(`^/v1/channels/${CHANNEL}$`), "Empty"],
  ["POST", new RegExp(`^/v1/channels/${CHANNEL}/(pause|resume)$`), "Channel"],
  ["GET", /^\/v1\/hooks$/, "Hook[]"],
  ["GET", new RegExp(`^/v1/hooks/${ID}$`), "Hook"],
  ["DELETE", new RegExp(`^/v1/hooks/${ID}$`), "Empty"],
  ["POST", new RegExp(`^/v1/hooks/${ID}/(discard|retry|process|fail|redeliver)$`), "Hook"],
];

let compiled: Record<string, ValidateFunction> | undefined;
function validators(): Record<string, ValidateFunction> {
  if (compiled) return compiled;
  // `byte` checked by decoding (linear), not by a regex over megabytes of base64.
  const ajv = new Ajv({ allErrors: true, strict: true, formats: { byte: (s: string) => Buffer.from(s, "base64").toString("base64") === s } });
  const schemas = { Channel, "Channel[]": { type: "array", items: Channel }, Hook, "Hook[]": { type: "array", items: Hook }, Empty };
  compiled = Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, ajv.compile(schema)]));
  return compiled;
}

/** The resource a documented route answers with 200 (undefined for other routes and for extensions asked for). */
export function documentedAnswer(method: string, pathWithQuery: string): string | undefined {
  const url = new URL(pathWithQuery, "http://target");
  // What a client asks for beyond the document: Mailroom's extension fields, or summaries.
  if (url.searchParams.has("include") || url.searchParams.has("fields")) return undefined;
  return ROUTES.find(([m, path]) => m === method.toUpperCase() && path.test(url.pathname))?.[2];
}

/**
 * Why a 200 answer of a documented route is not what the document says (undefined when it is).
 * `text` is the answer's body.
 */
export function specViolation(method: string, pathWithQuery: string, text: string): string | undefined {
  const answer = documentedAnswer(method, pathWithQuery);
  if (!answer) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return `${method} ${pathWithQuery}: the answer is not JSON`;
  }
  const validate = validators()[answer]!;
  if (validate(json)) return undefined;
  const errors = (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || "/"} ${e.message}${e.params && "additionalProperty" in e.params ? ` (${e.params.additionalProperty})` : ""}`);
  return `${method} ${pathWithQuery}: the answer is not the document's ${answer}: ${errors.join("; ")}`;
}
