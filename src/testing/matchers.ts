import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020";
import type { Hook } from "./types";

/**
 * Matchers for `expect.extend` in bun test and jest (vitest too): the same objects work in all
 * three, since they use only `this.isNot` and answer `{ pass, message }`.
 *
 * @example
 * import { matchers } from "mailroom-webhooks/testing";
 * expect.extend(matchers);
 * expect(hook).toMatchSchema({ type: "object", required: ["type"] });
 */

type Context = { isNot?: boolean };
type Result = { pass: boolean; message: () => string };

const draft07 = new Ajv({ allErrors: true, strict: false });
const draft2020 = new Ajv2020({ allErrors: true, strict: false });
const compiled = new WeakMap<object, ValidateFunction>();
/** Violations shown in a message, at most. */
const SHOWN = 10;

function validator(schema: object): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    const $schema = (schema as { $schema?: unknown }).$schema;
    const ajv = typeof $schema === "string" && $schema.includes("2020-12") ? draft2020 : draft07;
    compiled.set(schema, (v = ajv.compile(schema)));
  }
  return v;
}

const isHook = (x: unknown): x is Hook =>
  typeof x === "object" && x !== null && typeof (x as Hook).id === "string" && typeof (x as Hook).body === "string" && "content_type" in x;

/** What a schema is checked against: a hook's JSON body (its payload, else its body parsed), or the value itself. */
function subjectOf(received: unknown): { value: unknown; label: string } | { error: string } {
  if (!isHook(received)) return { value: received, label: "the value" };
  const type = (received as { event_type?: string }).event_type;
  const label = `hook ${received.id}${type ? ` (${type})` : ""}`;
  if (received.payload && typeof received.payload === "object") return { value: received.payload, label };
  const text = Buffer.from(received.body, "base64").toString("utf8");
  try {
    return { value: JSON.parse(text), label };
  } catch {
    return { error: `${label} has no JSON body (content type ${received.content_type || "none"}): ${JSON.stringify(text.slice(0, 80))}` };
  }
}

const violation = (e: ErrorObject) =>
  `  ${e.instancePath || "/"}: ${e.message ?? e.keyword}${e.keyword === "additionalProperties" ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : ""}`;

export const matchers = {
  /**
   * `expect(hook).toMatchSchema(schema)`: the hook's JSON body (or any value) is valid against a
   * JSON Schema (draft-07, or 2020-12 when its `$schema` says so). The message lists the violations
   * with their JSON paths (at most 10).
   */
  toMatchSchema(this: Context, received: unknown, schema: object): Result {
    if (typeof schema !== "object" || schema === null) throw new TypeError("toMatchSchema: give a JSON Schema (an object)");
    const subject = subjectOf(received);
    if ("error" in subject) return { pass: false, message: () => `expect(hook).toMatchSchema(schema)\n\n${subject.error}` };
    const validate = validator(schema);
    const pass = validate(subject.value) === true;
    const errors = validate.errors ?? [];
    return {
      pass,
      message: () =>
        pass
          ? `expect(hook).not.toMatchSchema(schema)\n\n${subject.label} matches the schema.`
          : [
              "expect(hook).toMatchSchema(schema)",
              "",
              `${subject.label} does not match the schema (${errors.length} violation${errors.length === 1 ? "" : "s"}):`,
              ...errors.slice(0, SHOWN).map(violation),
              ...(errors.length > SHOWN ? [`  ... and ${errors.length - SHOWN} more`] : []),
            ].join("\n"),
    };
  },
};

/** The matchers' types, for `declare module "bun:test" { interface Matchers<T> extends MailroomMatchers<T> {} }` (and jest's). */
export interface MailroomMatchers<R = unknown> {
  toMatchSchema(schema: object): R;
}
