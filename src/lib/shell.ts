/**
 * Commands for a POSIX shell, written so that pasting one runs exactly the program and arguments
 * meant, whatever the arguments hold: every argument that is not plain is single-quoted, a `'` in
 * it written `'\''`. Inside single quotes sh expands nothing: `$()`, backticks, `$VAR`, `;`, `\`
 * and newlines are the argument's own characters. The one quoting of every command Mailroom
 * generates (the dashboard's "Copy as curl" and first curl, the landing page). Pure and free of
 * Node and Bun APIs: the dashboard's page imports it.
 *
 * @example
 * shellQuote("POST") // POST
 * shellQuote("POST;touch X;#") // 'POST;touch X;#'
 * shellQuote("it's") // 'it'\''s'
 * shellCommand([["curl", "-X", "POST", "http://x/"], ["-d", "{}"]]) // "curl -X POST 'http://x/' \\\n  -d '{}'"
 */

/**
 * Characters sh gives no meaning to anywhere in a word (Python's shlex.quote's, but `:` and `/`,
 * so that a URL is always quoted: it reads the same whatever it holds).
 */
const PLAIN = /^[A-Za-z0-9_@%+=,.-]+$/;

/** `arg` as one shell word: unchanged when plain, else single-quoted (`''` for the empty string). */
export function shellQuote(arg: string): string {
  return PLAIN.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** A command over several lines, each a list of arguments (the first line's first is the program), joined by ` \` line ends. */
export function shellCommand(lines: string[][]): string {
  return lines.map((line) => line.map(shellQuote).join(" ")).join(" \\\n  ");
}
