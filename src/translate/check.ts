import type { Static, TSchema } from "@sinclair/typebox";
import { TypeCompiler, type ValueError } from "@sinclair/typebox/compiler";
import { queryInt, repeatedParameters, type IntRange } from "../lib/query-int";
import { bad } from "./errors";

/**
 * Request models checked by TypeBox itself rather than by Elysia's `body`/`query` options. Elysia
 * coerces numbers given as strings ("0x10" is taken as 16 for an integer field) and tells the error
 * of that coercion apart by its class name, which a minified build renames: the same request was
 * stored by the executable and refused by the source. Here a value is taken exactly as JSON or the
 * query string gives it, and every build answers the same INVALID_REQUEST naming the field.
 */

type Where = "body" | "query";

/** Names the first bad field in `parameters.field` and every bad field in the description. */
export function invalidRequest(where: Where, issues: Iterable<{ path: string; message: string; schema?: { error?: unknown } }>) {
  const fields = new Map<string, string>();
  for (const issue of issues) {
    const field = issue.path.replace(/^\//, "").replaceAll("/", ".") || where;
    const custom = typeof issue.schema?.error === "string" ? issue.schema.error : undefined;
    const message = custom ?? (issue.message === "Unexpected property" ? "unknown field" : issue.message.toLowerCase());
    if (!fields.has(field)) fields.set(field, message);
  }
  const [first] = fields;
  const description = `invalid ${where}: ${[...fields].map(([f, m]) => `${f}: ${m}`).join("; ") || "invalid"}`;
  return bad("INVALID_REQUEST", description, first ? { field: first[0], reason: first[1] } : {});
}

/**
 * The path of the first string holding U+0000, if any. No text a translation takes needs it, and a
 * PostgreSQL text value cannot hold it: both backends refuse it alike, as INVALID_REQUEST.
 */
function nulAt(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = nulAt(value[i], `${path}/${i}`);
      if (at !== undefined) return at;
    }
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const at = nulAt(v, `${path}/${k}`);
      if (at !== undefined) return at;
    }
  }
  return undefined;
}

/** Checks one part of a request; `where` and `schema` say which part and model (see lib/route-input.ts). */
export type Checker<In, Out> = ((value: In) => Out) & { where: Where; schema: TSchema };

/**
 * A checker for one model: gives back the value typed when it fits the model, throws
 * INVALID_REQUEST naming each bad field otherwise. A route declares it with `declares(checker)`,
 * which is what the OpenAPI documents read.
 *
 * @example const body = checkTranslate(await request body); // Static<typeof TranslateA>
 */
export function checker<T extends TSchema>(schema: T, where: Where): Checker<unknown, Static<T>> {
  const compiled = TypeCompiler.Compile(schema);
  const check = (value: unknown): Static<T> => {
    if (!compiled.Check(value)) throw invalidRequest(where, compiled.Errors(value) as Iterable<ValueError>);
    const nul = nulAt(value, "");
    if (nul !== undefined) throw invalidRequest(where, [{ path: nul, message: "must not contain the character U+0000" }]);
    return value;
  };
  return Object.assign(check, { where, schema });
}

/**
 * The query string as one value per name, checked against `schema` (whose fields are strings).
 * A name given twice is INVALID_REQUEST: neither value would silently win over the other.
 */
export function queryChecker<T extends TSchema>(schema: T): Checker<Request, Static<T>> {
  const check = checker(schema, "query");
  const fromRequest = (request: Request): Static<T> => {
    const [repeated] = repeatedParameters(request.url);
    if (repeated !== undefined) throw invalidRequest("query", [{ path: repeated, message: "given more than once" }]);
    const q = request.url.indexOf("?");
    return check(q < 0 ? {} : Object.fromEntries(new URLSearchParams(request.url.slice(q + 1))));
  };
  return Object.assign(fromRequest, { where: "query" as const, schema });
}

export const PAGE: IntRange = { min: 0, max: 1_000_000, fallback: 0 };
export const PER_PAGE: IntRange = { min: 1, max: 100, fallback: 20 };
const rangeText = (r: { min: number; max: number }) => `must be an integer from ${r.min} to ${r.max}`;

/** What a query schema says of `page` and `per_page` when they are not decimal digits. */
export const PAGE_ERROR = rangeText(PAGE);
export const PER_PAGE_ERROR = rangeText(PER_PAGE);

/** page and per_page as numbers, defaults filled; out of range is INVALID_REQUEST naming the field. */
export function pageOf(query: { page?: string; per_page?: string }): { page: number; perPage: number } {
  const refuse = (field: string, range: typeof PAGE) => () => invalidRequest("query", [{ path: field, message: rangeText(range) }]);
  return {
    page: queryInt(query.page, PAGE, refuse("page", PAGE)),
    perPage: queryInt(query.per_page, PER_PAGE, refuse("per_page", PER_PAGE)),
  };
}
