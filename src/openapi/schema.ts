/**
 * TypeBox schemas (as the routes validate with them) to OpenAPI 3.1 schemas, which are JSON
 * Schema 2020-12. These things are undone or tidied on the way:
 * - Integer query parameters: validated as strings of decimal digits (lib/query-int.ts), they are
 *   documented as the integer a client sends, with the range and default the route reads them with.
 *   Elysia's coercion of a `t.Integer` query parameter (`anyOf [string with format integer,
 *   integer]`) is documented as that integer too.
 * - The `error` and `field` texts that the error mappings read are not schema keywords.
 * - A union of string literals becomes an `enum`; `t.Record(t.String(), X)` becomes
 *   `additionalProperties: X`.
 * Symbol keys (TypeBox's Kind, Optional) are dropped by copying string keys only.
 */
import { QUERY_INTEGER } from "../lib/query-int";

export type JsonSchema = { [key: string]: unknown };

const DROPPED = new Set(["error", "field", "noValidate", "problem"]);
/** Keywords whose value maps names to schemas (so their keys are names, never keywords). */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs"]);
const ANY_STRING_KEY = "^(.*)$";

export function toJsonSchema(schema: unknown): JsonSchema {
  return clean(schema) as JsonSchema;
}

function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (node === null || typeof node !== "object") return node;
  const integer = (node as JsonSchema)[QUERY_INTEGER] as JsonSchema | undefined;
  if (integer) {
    const { description } = node as JsonSchema;
    return { type: "integer", ...integer, ...(description === undefined ? {} : { description }) };
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key)) continue;
    out[key] = SCHEMA_MAPS.has(key) ? mapValues(value as Record<string, unknown>, clean) : clean(value);
  }
  return tidy(out);
}

function tidy(s: JsonSchema): JsonSchema {
  const anyOf = s.anyOf as JsonSchema[] | undefined;
  if (anyOf) {
    // Elysia's coercion of a numeric query parameter: keep the number branch only.
    const coerced = anyOf.findIndex((b) => b.type === "string" && (b.format === "integer" || b.format === "numeric"));
    const numeric = anyOf.find((b) => b.type === "integer" || b.type === "number");
    if (anyOf.length === 2 && coerced >= 0 && numeric) {
      const { anyOf: _, default: __, ...rest } = s;
      return { ...rest, ...numeric };
    }
    if (anyOf.length > 0 && anyOf.every((b) => b.type === "string" && typeof b.const === "string" && Object.keys(b).length === 2)) {
      const { anyOf: _, ...rest } = s;
      return { ...rest, type: "string", enum: anyOf.map((b) => b.const) };
    }
  }
  const pattern = s.patternProperties as Record<string, JsonSchema> | undefined;
  if (s.type === "object" && pattern && Object.keys(pattern).length === 1 && pattern[ANY_STRING_KEY]) {
    const { patternProperties: _, ...rest } = s;
    return { ...rest, additionalProperties: pattern[ANY_STRING_KEY] };
  }
  return s;
}

function mapValues<T, U>(o: Record<string, T>, f: (v: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
}

/**
 * Names models: wherever a (cleaned) schema equals a named model, `$ref` to it replaces it, so the
 * documents name Channel, Hook, Order... instead of repeating them. The models themselves are
 * components whose parts are named the same way.
 */
export function createNamer(models: Record<string, unknown>) {
  const byShape = new Map<string, string>();
  const components: Record<string, JsonSchema> = {};
  for (const [name, model] of Object.entries(models)) byShape.set(JSON.stringify(toJsonSchema(model)), name);

  function refer(node: unknown, root: boolean): unknown {
    if (Array.isArray(node)) return node.map((n) => refer(n, false));
    if (node === null || typeof node !== "object") return node;
    if (!root) {
      const name = byShape.get(JSON.stringify(node));
      if (name) return { $ref: `#/components/schemas/${name}` };
    }
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] = SCHEMA_MAPS.has(key) ? mapValues(value as Record<string, unknown>, (v) => refer(v, false)) : refer(value, false);
    }
    return out;
  }

  for (const [name, model] of Object.entries(models)) components[name] = refer(toJsonSchema(model), true) as JsonSchema;

  return {
    components,
    /** The schema, with named models as references. */
    schema: (s: unknown): JsonSchema => refer(toJsonSchema(s), false) as JsonSchema,
  };
}
