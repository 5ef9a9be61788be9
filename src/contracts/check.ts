import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats";
import type { CompiledSchema } from "../config/schema";

/**
 * Contract checks of caught hooks (docs/contracts.md): a hook whose provider publishes JSON Schemas
 * is checked against the schema of its event type, after the sender was answered (compose/changes.ts
 * follows the change sink's caught batches). Schemas are compiled lazily, once per event type, and kept.
 *
 * - GitHub (`X-GitHub-Event`): @octokit/webhooks-schemas, `pull_request.opened` → `pull_request$opened`,
 *   `push` → `push$event`; an action without a definition falls back to the event's union.
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`): the envelope
 *   (`type`, `timestamp`, `data`).
 * - Stripe and the rest: no npm package in reach carries JSON Schemas of their events (stripe's
 *   package has TypeScript types only), so their hooks are `none` unless the channel names a schema.
 */

export type ContractResult = "valid" | "invalid" | "unknown" | "none";
export const CONTRACT_RESULTS: readonly ContractResult[] = ["valid", "invalid", "unknown", "none"];

/** One violation: where in the body (a JSON Pointer, "" for the whole body) and what is wrong. */
export type Violation = { path: string; message: string };

/** At most this many violations are kept per hook. */
export const MAX_VIOLATIONS = 5;

export type Verdict = { result: ContractResult; violations: Violation[] };

/** A hook as the checker reads it. */
export type Checked = { channel: string; eventType: string; headers: Record<string, string>; body: unknown };

/** What decides whether a schema applies to a hook: no body needed. */
export type ContractSubject = Omit<Checked, "body">;

/**
 * Whether any schema applies to a hook (its channel's own for its event type, GitHub's, the
 * Standard Webhooks envelope): when none does, its result is `none` whatever its body, which is
 * why such results are not kept (index.ts) but implied when read (wire.ts).
 */
export function schemaApplies(own: ChannelSchemas | undefined, { eventType, headers }: ContractSubject): boolean {
  if (own?.some((s) => patternMatches(s.pattern, eventType))) return true;
  if (headers["x-github-event"] !== undefined) return true;
  return headers["webhook-id"] !== undefined && headers["webhook-timestamp"] !== undefined && headers["webhook-signature"] !== undefined;
}

/** A channel's own schemas: event type patterns (`invoice.*`, `*`) to compiled validators, first match wins. */
export type ChannelSchemas = readonly { pattern: string; validate: CompiledSchema }[];

/** Strings remembered per memoised format before the memory starts again. */
const FORMAT_MEMO_MAX = 10_000;

function makeAjv(): Ajv {
  const ajv = new Ajv({ allErrors: false, strict: false, validateFormats: true });
  addFormats(ajv);
  // GitHub's hooks carry dozens of `uri` and `uri-template` strings (api.github.com links), the same
  // for every hook of a repository, and ajv-formats' checks of them were a third of a push's check on
  // the serving thread: their answers are remembered (the same answer, only sooner).
  for (const name of ["uri", "uri-template"] as const) {
    const format = fullFormats[name];
    const test = format instanceof RegExp ? (s: string) => format.test(s) : (format as (s: string) => boolean);
    const memo = new Map<string, boolean>();
    ajv.addFormat(name, {
      type: "string",
      validate: (s: string) => {
        let ok = memo.get(s);
        if (ok === undefined) {
          if (memo.size >= FORMAT_MEMO_MAX) memo.clear();
          memo.set(s, (ok = test(s)));
        }
        return ok;
      },
    });
  }
  return ajv;
}

/** Compiles a user's schema (throws with ajv's message when it is not a valid JSON Schema). */
export function compileUserSchema(schema: unknown): ValidateFunction {
  return makeAjv().compile(schema as object);
}

/** Whether an event type matches a pattern: exact, `*`, or a prefix followed by `*`. */
export function patternMatches(pattern: string, eventType: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith("*")) return eventType.startsWith(pattern.slice(0, -1));
  return pattern === eventType;
}

const STANDARD_ENVELOPE = {
  type: "object",
  required: ["type", "timestamp", "data"],
  properties: { type: { type: "string", minLength: 1 }, timestamp: { type: "string", format: "date-time" }, data: { type: "object" } },
};

function violations(errors: ErrorObject[] | null | undefined): Violation[] {
  return (errors ?? []).slice(0, MAX_VIOLATIONS).map((e) => {
    let path = e.instancePath;
    if (e.keyword === "required")
      path += `/${String((e.params as { missingProperty: string }).missingProperty)
        .replace(/~/g, "~0")
        .replace(/\//g, "~1")}`;
    if (e.keyword === "additionalProperties") path += `/${String((e.params as { additionalProperty: string }).additionalProperty)}`;
    return { path, message: e.message ?? e.keyword };
  });
}

function verdict(validate: CompiledSchema, body: unknown): Verdict {
  return validate(body) ? { result: "valid", violations: [] } : { result: "invalid", violations: violations(validate.errors as ErrorObject[] | null) };
}

export interface ContractChecker {
  check(hook: Checked): Verdict;
  /** Whether `check` reads the body (a schema applies): when not, its verdict is `none` whatever the body. */
  applies(hook: ContractSubject): boolean;
}

/** The checker: built-in providers' schemas (compiled as first needed) and the channels' own. */
export function createContractChecker(channelSchemas: (channel: string) => ChannelSchemas | undefined = () => undefined): ContractChecker {
  let github: { ajv: Ajv; definitions: Record<string, unknown> } | undefined;
  const compiled = new Map<string, ValidateFunction | null>();
  let standard: ValidateFunction | undefined;

  function githubSchemas() {
    if (!github) {
      const schema = require("@octokit/webhooks-schemas") as { definitions: Record<string, unknown>; oneOf?: unknown };
      const ajv = makeAjv();
      // Without the root's oneOf over every event: compiling one event's definition compiled the
      // root with it, all of them (1.7 s on the thread that catches, at the first GitHub hook;
      // 34 ms without). The events' own $refs point into `definitions`, which stay.
      const { oneOf: _every, ...definitions } = schema;
      ajv.addSchema(definitions, "github");
      github = { ajv, definitions: schema.definitions };
    }
    return github;
  }

  function githubValidator(eventType: string): ValidateFunction | null {
    const cached = compiled.get(eventType);
    if (cached !== undefined) return cached;
    const gh = githubSchemas();
    const [event, action] = eventType.split(".", 2) as [string, string | undefined];
    const names = action ? [`${event}$${action}`, `${event}_event`, `${event}$event`] : [`${event}$event`, `${event}_event`];
    const found = names.find((n) => n in gh.definitions);
    const validate = found ? (gh.ajv.getSchema(`github#/definitions/${found}`) ?? null) : null;
    compiled.set(eventType, validate);
    return validate;
  }

  return {
    applies: (hook) => schemaApplies(channelSchemas(hook.channel), hook),
    check({ channel, eventType, headers, body }) {
      const own = channelSchemas(channel)?.find((s) => patternMatches(s.pattern, eventType));
      if (own) return body === undefined ? { result: "invalid", violations: [{ path: "", message: "the body is not JSON" }] } : verdict(own.validate, body);
      if (headers["x-github-event"] !== undefined) {
        if (body === undefined) return { result: "invalid", violations: [{ path: "", message: "the body is not JSON" }] };
        const validate = githubValidator(eventType);
        return validate ? verdict(validate, body) : { result: "unknown", violations: [] };
      }
      if (headers["webhook-id"] !== undefined && headers["webhook-timestamp"] !== undefined && headers["webhook-signature"] !== undefined) {
        if (body === undefined) return { result: "invalid", violations: [{ path: "", message: "the body is not JSON" }] };
        standard ??= makeAjv().compile(STANDARD_ENVELOPE);
        return verdict(standard, body);
      }
      return { result: "none", violations: [] };
    },
  };
}

/** The field paths of a JSON body (`pull_request.head.sha`; array items as `[]`), at most `max`. */
export function fieldPaths(body: unknown, max = 2000): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, path: string, depth: number) => {
    if (out.size >= max || depth > 32) return;
    if (Array.isArray(v)) {
      for (const item of v) walk(item, `${path}[]`, depth + 1);
    } else if (v !== null && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        const p = path ? `${path}.${k}` : k;
        out.add(p);
        walk(child, p, depth + 1);
      }
    }
  };
  walk(body, "", 0);
  return [...out];
}

/** A channel's schema file read and compiled (load-config.ts hands this to the loader); a string says what is wrong. */
export function loadSchemaFile(file: string): ValidateFunction | string {
  let text: string;
  try {
    text = require("node:fs").readFileSync(file, "utf8") as string;
  } catch {
    return "cannot be read";
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (e) {
    return `is not JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  if (schema === null || (typeof schema !== "object" && typeof schema !== "boolean")) return "is not a JSON Schema (an object or a boolean)";
  try {
    return compileUserSchema(schema);
  } catch (e) {
    return `is not a valid JSON Schema: ${e instanceof Error ? e.message : String(e)}`;
  }
}
