import { didYouMean } from "./suggest";

/**
 * The flag parser of every command: `--name value`, `--name=value`, boolean flags, repeatable
 * ones, and positionals. Unknown flags and missing values are errors, never guesses.
 *
 * @example parseFlags(["ch", "--to=http://x", "--json"], { to: "value", json: "bool" }) // positional ["ch"], values { to }, bools {json}
 */
export type FlagSpec = Record<string, "value" | "bool" | "multi">;
export type Parsed = { positional: string[]; values: Record<string, string>; bools: Set<string>; multi: Record<string, string[]> };

export type FlagOptions = {
  /** The message of an unknown flag, from its name as written (before any `=`) and the whole argument. */
  unknown?: (name: string, arg: string) => string;
  /**
   * Flags only, as the server commands take them: every argument starting with `-` is a flag
   * (`-x`, `-` and `--` too), and any other is refused, as it comes, with this message.
   */
  notAFlag?: (arg: string) => string;
  /** Checks a flag's value as it comes: a message refuses it (before any later argument is read). */
  check?: (name: string, value: string) => string | undefined;
};

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Throws UsageError on an unknown flag or a flag without its value. */
export function parseFlags(argv: readonly string[], spec: FlagSpec, options: FlagOptions = {}): Parsed {
  const out: Parsed = { positional: [], values: {}, bools: new Set(), multi: {} };
  const args = [...argv];
  while (args.length > 0) {
    const arg = args.shift()!;
    if (options.notAFlag) {
      if (!arg.startsWith("-")) throw new UsageError(options.notAFlag(arg));
    } else if (arg === "--") {
      out.positional.push(...args.splice(0));
      break;
    } else if (!arg.startsWith("--")) {
      out.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const written = eq < 0 ? arg : arg.slice(0, eq);
    const kind = kindOf(spec, written);
    if (!kind)
      throw new UsageError(
        options.unknown?.(written, arg) ??
          `unknown flag ${written}${didYouMean(
            written,
            Object.keys(spec).map((k) => `--${k}`),
          )}`,
      );
    const name = written.slice(2);
    take(out, name, kind, eq < 0 ? undefined : arg.slice(eq + 1), args);
    const refused = kind === "bool" ? undefined : options.check?.(name, out.values[name] ?? out.multi[name]!.at(-1)!);
    if (refused !== undefined) throw new UsageError(refused);
  }
  return out;
}

/**
 * Takes the flags of `spec` out of argv wherever they stand (before or after a command's name,
 * among another parser's flags) and leaves every other argument in `rest`, in order. Throws
 * UsageError on one of them without its value.
 *
 * @example takeFlags(["hooks", "--url=http://x", "list"], { url: "value" }) // rest ["hooks", "list"], values { url }
 */
export function takeFlags(argv: readonly string[], spec: FlagSpec): Parsed & { rest: string[] } {
  const out = { positional: [], values: {}, bools: new Set<string>(), multi: {}, rest: [] as string[] };
  const args = [...argv];
  while (args.length > 0) {
    const arg = args.shift()!;
    const eq = arg.indexOf("=");
    const written = eq < 0 ? arg : arg.slice(0, eq);
    const kind = kindOf(spec, written);
    if (kind) take(out, written.slice(2), kind, eq < 0 ? undefined : arg.slice(eq + 1), args);
    else out.rest.push(arg);
  }
  return out;
}

const kindOf = (spec: FlagSpec, written: string) => (written.startsWith("--") && Object.hasOwn(spec, written.slice(2)) ? spec[written.slice(2)] : undefined);

/** One flag into `out`: its value written inline, or the next argument. */
function take(out: Parsed, name: string, kind: FlagSpec[string], inline: string | undefined, args: string[]): void {
  if (kind === "bool") {
    if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
    out.bools.add(name);
    return;
  }
  const value = inline ?? args.shift();
  if (value === undefined) throw new UsageError(`--${name} needs a value`);
  if (kind === "multi") (out.multi[name] ??= []).push(value);
  else out.values[name] = value;
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
