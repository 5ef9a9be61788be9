/** Runs a client command: the Mailroom it calls, and the errors it answered with. */
import { takeFlags } from "../lib/args";
import { ClientError, createClient, type Client } from "./client";
import type { Io } from "../lib/io";
import { resolveTarget } from "./target";

/** Takes --url, --token and --config out of argv, wherever they are. Throws UsageError. */
export function globalFlags(argv: readonly string[]): { rest: string[]; url?: string; token?: string; config?: string } {
  const { rest, values } = takeFlags(argv, { url: "value", token: "value", config: "value" });
  return { rest, ...values };
}

/** Resolves to the exit code: 1 when Mailroom refused or could not be reached. Throws UsageError. */
export async function runClientCommand(argv: readonly string[], io: Io, run: (argv: string[], client: Client, io: Io) => Promise<number>): Promise<number> {
  const { rest, ...flags } = globalFlags(argv);
  try {
    return await run(rest, createClient(resolveTarget(flags, io.env)), io);
  } catch (error) {
    if (error instanceof ClientError) return (io.err(`mailroom: ${error.message}\n`), 1);
    throw error;
  }
}

/** Runs `fn` with a signal that SIGINT or SIGTERM aborts (a following command ends cleanly). */
export async function untilSignal(fn: (signal: AbortSignal) => Promise<number>): Promise<number> {
  const stop = new AbortController();
  const abort = () => stop.abort();
  process.on("SIGINT", abort);
  process.on("SIGTERM", abort);
  try {
    return await fn(stop.signal);
  } finally {
    process.off("SIGINT", abort);
    process.off("SIGTERM", abort);
  }
}
