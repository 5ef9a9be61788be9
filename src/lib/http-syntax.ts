/**
 * The syntax of a request's parts as RFC 9110 defines it: what the catching endpoint's HTTP parser
 * lets through, and so what every other way a hook enters (import, relay frames, edit-and-send) must
 * check too. Pure; no limits of Mailroom's own (sizes, counts) live here.
 *
 * @example
 * isMethodToken("POST") // true
 * isMethodToken("POST;touch X") // false
 * requestPartsProblem("GET", { "x-a": "b\r\nc" }) // "header x-a: the value holds a control character"
 */

/** RFC 9110 §5.6.2 token: one or more tchar. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/**
 * RFC 9110 §5.5 field value: visible ASCII, obs-text (0x80-0xFF), spaces and tabs; no CR, LF, NUL or
 * other control character. Values held as strings may carry any code point above 0x7F (a
 * decoded obs-text), which is kept as the parser keeps it.
 */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\u{10ffff}]*$/u;

/** True when `method` is an RFC 9110 token (what an HTTP parser accepts as a method). */
export function isMethodToken(method: string): boolean {
  return TOKEN.test(method);
}

/** True when `name` is an RFC 9110 token (a valid header field name). */
export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/** True when `value` holds no CR, LF, NUL or other control character but tab. */
export function isHeaderValue(value: string): boolean {
  return FIELD_VALUE.test(value);
}

/**
 * What is wrong with a method and headers that claim to be a caught request, in words, or null when
 * an HTTP parser would have accepted them.
 */
export function requestPartsProblem(method: string, headers: Record<string, string>): string | null {
  if (!isMethodToken(method)) return "the method is not an HTTP token";
  for (const [name, value] of Object.entries(headers)) {
    if (!isHeaderName(name)) return `header name ${JSON.stringify(name.slice(0, 64))} is not an HTTP token`;
    if (!isHeaderValue(value)) return `header ${name.slice(0, 64)}: the value holds a control character`;
  }
  return null;
}
