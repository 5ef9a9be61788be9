/**
 * Integer query parameters (paging) read from the text the client sent. Routes declare them as
 * strings of decimal digits, so Elysia never coerces them: its coercion reads "0x10" and "1e3" as
 * numbers, and the error its coercion throws is told apart by class name, which a minified build
 * renames (a 500 instead of a 400). Range and meaning are checked here, the same in every build.
 */

import { Type, type TString } from "@sinclair/typebox";

/** Decimal digits only, no sign, no leading zero, at most 15 digits (safe integers). */
export const DECIMAL_DIGITS = "^(0|[1-9][0-9]{0,14})$";

/** An integer query parameter's range, and what it is when absent. */
export type IntRange = { min: number; max: number; fallback: number };

/**
 * The schema key under which a digits-string parameter keeps the integer it stands for
 * (`{ minimum, maximum, default }`). Validators ignore it; the OpenAPI generator documents the
 * parameter as that integer, since that is what a client sends.
 */
export const QUERY_INTEGER = "x-query-integer";

/**
 * The schema of an integer query parameter: decimal digits as sent (checked by the route's
 * validator, with `error` as its message), read and range-checked by queryInt() with the same `range`.
 *
 * @example limit: t.Optional(queryIntegerSchema({ min: 1, max: 100, fallback: 50 }, "limit: must be ..."))
 */
export function queryIntegerSchema(range: IntRange, error: string): TString {
  return Type.String({ pattern: DECIMAL_DIGITS, error, [QUERY_INTEGER]: { minimum: range.min, maximum: range.max, default: range.fallback } });
}

/**
 * The integer `text` spells, when it spells one from `min` to `max`; `fallback` when absent.
 * Throws what `refuse()` makes otherwise.
 *
 * @example queryInt("20", { min: 1, max: 100, fallback: 50 }, refuse) === 20
 */
export function queryInt(text: string | undefined, range: IntRange, refuse: () => Error): number {
  if (text === undefined) return range.fallback;
  if (!new RegExp(DECIMAL_DIGITS).test(text)) throw refuse();
  const n = Number(text);
  if (n < range.min || n > range.max) throw refuse();
  return n;
}

/** The names given more than once in a URL's query string, in order of their second mention. */
export function repeatedParameters(url: string): string[] {
  const q = url.indexOf("?");
  if (q < 0) return [];
  const seen = new Set<string>();
  const repeated: string[] = [];
  for (const name of new URLSearchParams(url.slice(q + 1)).keys()) {
    if (seen.has(name) && !repeated.includes(name)) repeated.push(name);
    seen.add(name);
  }
  return repeated;
}
