import { didYouMean } from "./suggest";

/**
 * A small flag parser for the client commands: `--name value`, `--name=value`, boolean flags,
 * repeatable ones, and positionals. Unknown flags and missing values are errors, never guesses.
 */
export type FlagSpec = Record<string, "value" | "bool" | "multi">;
export type Parsed = { positional: string[]; values: Record<string, string>; bools: Set<string>; multi: Record<string, string[]> };

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Throws UsageError on an unknown flag or a flag without its value. */
export function parseFlags(argv: readonly string[], spec: FlagSpec): Parsed {
  const out: Parsed = { positional: [], values: {}, bools: new Set(), multi: {} };
  const args = [...argv];
  while (args.length > 0) {
    const arg = args.shift()!;
    if (arg === "--") {
      out.positional.push(...args.splice(0));
      break;
    }
    if (!arg.startsWith("--") || arg === "-") {
      out.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = (eq < 0 ? arg : arg.slice(0, eq)).slice(2);
    const kind = spec[name];
    if (!kind)
      throw new UsageError(
        `unknown flag --${name}${didYouMean(
          `--${name}`,
          Object.keys(spec).map((k) => `--${k}`),
        )}`,
      );
    if (kind === "bool") {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      out.bools.add(name);
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : args.shift();
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (kind === "multi") (out.multi[name] ??= []).push(value);
    else out.values[name] = value;
  }
  return out;
}

/** An unknown subcommand of `command`, with the closest of `known`. */
export function unknownSubcommand(command: string, sub: string, known: readonly string[]): UsageError {
  return new UsageError(`unknown ${command} subcommand: ${sub}${didYouMean(sub, known)}`);
}

/** The positional at `i`, or a UsageError naming what is missing. */
export function required(parsed: Parsed, i: number, what: string): string {
  const v = parsed.positional[i];
  if (v === undefined) throw new UsageError(`missing ${what}`);
  return v;
}

/** Refuses positionals beyond `n`. */
export function noMore(parsed: Parsed, n: number): void {
  if (parsed.positional.length > n) throw new UsageError(`unexpected argument: ${parsed.positional[n]}`);
}
