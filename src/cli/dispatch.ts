/**
 * From argv to a command of the table (commands.ts): `--help` (of Mailroom or of a command),
 * `--version`, a usage mistake (its one line, with "did you mean", and where the usage is: exit
 * code 2), or the command itself, whose module is loaded only then.
 */
import { UsageError } from "../lib/args";
import { COMMANDS, findCommand } from "./commands";
import { commandHelp, mainHelp, usageMistake } from "./help";
import type { Io } from "../lib/io";
import { didYouMean } from "../lib/suggest";

/** Flags every command takes before or after its name; their values are not command names. */
const GLOBAL_WITH_VALUE = new Set(["--url", "--token", "--config"]);

/** Where the command's name is in argv: the first argument that is neither a flag nor a global flag's value. */
export function commandIndex(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (GLOBAL_WITH_VALUE.has(arg)) i++;
    else if (/^--(url|token|config)=/.test(arg)) continue;
    else return arg.startsWith("-") ? -1 : i;
  }
  return -1;
}

/** Runs argv (without the runtime and script); resolves to the exit code, or -1 while serving. */
export async function runCli(argv: readonly string[], io: Io, version: string): Promise<number> {
  const at = commandIndex(argv);
  let name = at < 0 ? "serve" : argv[at]!;
  let rest = at < 0 ? [...argv] : [...argv.slice(0, at), ...argv.slice(at + 1)];
  const beforeDashes = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
  let help = beforeDashes.includes("--help") || beforeDashes.includes("-h");
  if (name === "help") {
    // `mailroom help [COMMAND]`
    if (rest.length === 0) return (io.out(mainHelp(version)), 0);
    [name, ...rest] = rest as [string, ...string[]];
    help = true;
  }
  if (at < 0 && help) return (io.out(mainHelp(version)), 0);
  if (beforeDashes.includes("--version") || (at < 0 && argv[0] === "-v")) return (io.out(`${version}\n`), 0);
  const entry = findCommand(name);
  if (!entry) {
    const known = [...COMMANDS.map((c) => c.name), "--version", "--help"];
    return (io.err(usageMistake(`unknown command: ${name}${didYouMean(name, known)}`)), 2);
  }
  if (help) return (io.out(commandHelp(entry)), 0);
  try {
    return await entry.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) return (io.err(usageMistake(error.message, entry.name)), 2);
    throw error;
  }
}
