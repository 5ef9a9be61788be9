/** The commands of run.ts: parsed here, run there (which loads the server and the storage). */
import { parseArgs } from "../cli";
import { UsageError } from "../lib/args";

/** `argv` starts with the command's name. Throws UsageError. */
export async function serverCommand(argv: string[]): Promise<number> {
  const command = parseArgs(argv);
  if (command.kind === "error") throw new UsageError(command.message);
  if (command.kind === "help" || command.kind === "version") throw new Error("help and version are answered before a command runs");
  const { runCommand } = await import("../run");
  return runCommand(command);
}
