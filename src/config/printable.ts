const ESCAPES: Record<string, string> = { "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Text safe to print on one line: control characters (C0, DEL, C1) and the Unicode line and
 * paragraph separators written as JSON writes them (`\r`, `\n`, `\u0000`). A key path or value
 * quoted in a problem may hold them (a TOML key may be "a\r\nb"); printed raw, one would break
 * the line or move the cursor. Backslashes are left as they are.
 *
 * @example printable("server.x\r\ny") // "server.x\\r\\ny"
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
