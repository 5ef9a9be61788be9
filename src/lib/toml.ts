import { parse as parseSmolToml } from "smol-toml";

/** A TOML syntax error: `FILE:LINE:COLUMN: Bun's message`, with no value of the text in it. */
export class TomlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TomlError";
  }
}

/**
 * Parses TOML text with Bun's parser; a syntax error throws TomlError naming `file`. Bun's parser
 * quotes an unquoted value in its message ("Strings must be quoted: \"...\""), and that value may
 * be a secret written without quotes: it is replaced by the line it is on.
 *
 * @example parseToml(await Bun.file(path).text(), path) // { server: { port: 8080 }, ... }
 */
export function parseToml(text: string, file: string): unknown {
  try {
    return Bun.TOML.parse(text);
  } catch (error) {
    let message = (error as Error).message;
    const quoted = /"([^"]+)"/.exec(message)?.[1];
    if (quoted !== undefined) {
      const at = text.indexOf(quoted);
      const shown = at < 0 ? "the value is not shown" : `the value on line ${text.slice(0, at).split("\n").length} is not shown`;
      message = message.replace(`"${quoted}"`, `(${shown})`);
    }
    throw new TomlError(`${file}${where(text)}: ${message}`);
  }
}

/**
 * `:LINE:COLUMN` of a TOML syntax error, from smol-toml's parser (Bun's does not say where); only
 * its position is used, never its message, which quotes the line (a secret may be on it).
 */
function where(text: string): string {
  try {
    parseSmolToml(text);
  } catch (error) {
    const { line, column } = error as { line?: unknown; column?: unknown };
    if (typeof line === "number" && typeof column === "number") return `:${line}:${column}`;
  }
  return "";
}
