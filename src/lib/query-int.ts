/**
 * Integer query parameters (paging) read from the text the client sent. Routes declare them as
 * strings of decimal digits, so Elysia never coerces them: its coercion reads "0x10" and "1e3" as
 * numbers, and the error its coercion throws is told apart by class name, which a minified build
 * renames (a 500 instead of a 400). Range and meaning are checked here, the same in every build.
 */

/** Decimal digits only, no sign, no leading zero, at most 15 digits (safe integers). */
export const DECIMAL_DIGITS = "^(0|[1-9][0-9]{0,14})$";

/**
 * The integer `text` spells, when it spells one from `min` to `max`; `fallback` when absent.
 * Throws what `refuse()` makes otherwise.
 *
 * @example queryInt("20", { min: 1, max: 100, fallback: 50 }, refuse) === 20
 */
export function queryInt(
  text: string | undefined,
  range: { min: number; max: number; fallback: number },
  refuse: () => Error,
): number {
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
