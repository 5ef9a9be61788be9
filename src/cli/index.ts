import { UsageError } from "./args";
import { ClientError, createClient } from "./client";
import { hooksCommand } from "./hooks";
import type { Io } from "./io";
import { replayCommand } from "./replay";
import { sendCommand } from "./send";
import { tailCommand } from "./tail";
import { resolveTarget } from "./target";
import { tokenCommand } from "./token";
import { ConfigError, loadConfig } from "../config/load";

/** The commands that talk to a running Mailroom (and `token`, which works on its data file). */
export const CLIENT_COMMANDS = new Set(["tail", "hooks", "send", "replay", "token"]);

/** Whether argv names a client command (global flags may come first). */
export function isClientCommand(argv: readonly string[]): boolean {
  try {
    return CLIENT_COMMANDS.has(globalFlags(argv).rest[0] ?? "");
  } catch {
    return false;
  }
}

export const CLIENT_USAGE = `  mailroom tail [--channel C] [--status S] [--json]        follow hooks as they are caught (and change)
  mailroom hooks ls [--channel C] [--status S] [--limit N] [--json]
  mailroom hooks show ID [--json]                          headers and the body decoded for reading
  mailroom hooks body ID                                   the exact body bytes, to stdout
  mailroom hooks retry|discard|process|redeliver|delete ID
  mailroom send CHANNEL [--data @FILE|-|TEXT] [--header K:V]... [--method M]
                [--sign github|stripe|standard-webhooks|shopify|slack --secret S]
  mailroom replay ID --to URL                              send a stored hook again, byte for byte
  mailroom token reset|show [--config FILE]                re-issue / print this machine's API token
  mailroom token create --label L [--scope relay --channel C]...
                                                           a new API key (a relay key for C), printed once
  Every client command takes --url URL and --token T (else $MAILROOM_URL and $MAILROOM_TOKEN, else
  the credentials file serve writes next to its data file; --config FILE says which data file).`;

/** Takes --url, --token and --config out of argv, wherever they are. Throws UsageError. */
function globalFlags(argv: readonly string[]): { rest: string[]; url?: string; token?: string; config?: string } {
  const rest: string[] = [];
  const out: { url?: string; token?: string; config?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const m = /^--(url|token|config)(?:=(.*))?$/.exec(arg);
    if (!m) {
      rest.push(arg);
      continue;
    }
    const value = m[2] ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${m[1]} needs a value`);
    out[m[1] as "url" | "token" | "config"] = value;
  }
  return { rest, ...out };
}

/** Runs one client command; resolves to the exit code. Usage errors print the usage (exit 2). */
export async function runClient(argv: readonly string[], io: Io, usage: string): Promise<number> {
  try {
    const { rest, ...flags } = globalFlags(argv);
    const [command, ...args] = rest;
    if (command === "token") return await tokenCommand(flags.config ? [...args, "--config", flags.config] : args, io, storageOf);
    const target = resolveTarget(flags, io.env);
    const client = createClient(target);
    switch (command) {
      case "tail":
        return await untilSignal((signal) => tailCommand(args, client, io, signal));
      case "hooks":
        return await hooksCommand(args, client, io);
      case "send":
        return await sendCommand(args, client, io);
      case "replay":
        return await replayCommand(args, client, io);
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
  } catch (error) {
    if (error instanceof UsageError) return (io.err(`mailroom: ${error.message}\n\n${usage}`), 2);
    if (error instanceof ClientError) return (io.err(`mailroom: ${error.message}\n`), 1);
    if (error instanceof ConfigError) return (io.err(`mailroom: the config has problems:\n${error.message}\n`), 1);
    throw error;
  }
}

/** Runs `fn` with a signal that SIGINT or SIGTERM aborts (a following command ends cleanly). */
async function untilSignal(fn: (signal: AbortSignal) => Promise<number>): Promise<number> {
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

/** The data file, host and port of the config `serve` would read. Throws ConfigError. */
async function storageOf(file?: string): Promise<{ path: string; host: string; port: number; url?: string; labels: string[] }> {
  const { config } = await loadConfig(file, process.env);
  const labels = config.api_keys.map((k) => k.label);
  return { path: config.storage.path, host: config.server.host, port: config.server.port, url: config.storage.url, labels };
}

/** The process's own stdout, stderr and stdin. */
export const processIo: Io = {
  out: (text) => void process.stdout.write(text),
  outBytes: (bytes) => void process.stdout.write(bytes),
  err: (text) => void process.stderr.write(text),
  stdin: async () => new Uint8Array(await Bun.stdin.arrayBuffer()),
  env: process.env,
  now: () => Date.now(),
};
