#!/usr/bin/env bun
/**
 * The only module with side effects: reads argv, the config and the environment, opens the
 * database, starts the runner and the listener, and stops them on SIGINT/SIGTERM.
 */
import "./production";
import { dirname, resolve } from "node:path";
import { createApp } from "./app";
import { HELP, VERSION, parseArgs } from "./cli";
import { isClientCommand, processIo, runClient } from "./cli/index";
import { saveLocalCredentials } from "./cli/token";
import { ConfigError, loadConfig } from "./config/load";
import { startCheckpointer } from "./db/checkpoint";
import { openDatabase } from "./db/open";
import { LOCAL_KEY, resolveApiKeys } from "./hooks/auth";
import { systemClock } from "./lib/clock";
import { coalesce, createTerminal } from "./lib/terminal";
import { createRunner } from "./runner";
import { serve } from "./server";

async function main(): Promise<number> {
  if (isClientCommand(Bun.argv.slice(2))) return runClient(Bun.argv.slice(2), processIo, HELP);
  const command = parseArgs(Bun.argv.slice(2));
  if (command.kind === "help") return console.log(HELP), 0;
  if (command.kind === "version") return console.log(VERSION), 0;
  if (command.kind === "error") return console.error(`mailroom: ${command.message}\n\n${HELP}`), 2;

  let loaded;
  try {
    loaded = await loadConfig(command.config, process.env, { host: command.host, port: command.port, forwardTo: command.forwardTo });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`mailroom: the config has ${error.problems.length} problem(s):`);
    for (const p of error.problems) console.error(`  ${p.path || "(file)"}: ${p.message}`);
    return 1;
  }
  const { config, source } = loaded;
  if (command.kind === "check-config") return console.log(`${source}: ok`), 0;

  const clock = systemClock;
  const stdout = coalesce((text) => void process.stdout.write(text));
  const { activity, log } = createTerminal({
    format: command.logFormat ?? "text", quiet: command.quiet ?? false,
    color: process.stdout.isTTY === true && !process.env.NO_COLOR,
    write: stdout.write, writeError: (text) => (stdout.flush(), void process.stderr.write(text)),
  });
  const db = openDatabase({ path: config.storage.path, durability: config.storage.durability });
  // Also an entry point of `npm run build`, so it sits at this path inside the executable too.
  const checkpointer =
    config.storage.path === ":memory:"
      ? undefined
      : startCheckpointer({
          sql: db.$client, path: config.storage.path, log,
          threadUrl: new URL("./db/checkpoint-thread.ts", import.meta.url).href,
        });
  // Relative module paths and command cwd resolve against the config file's directory.
  const baseDir = source === "built-in defaults" ? undefined : dirname(resolve(source));
  const runner = createRunner({ config, db, clock, log, baseDir, activity });
  const { keys, generated } = resolveApiKeys(config, db, clock.now());
  const built = createApp({ config, db, clock, log, runner, apiKeys: keys, activity });
  const server = serve(built, { host: config.server.host, port: config.server.port });
  runner.start();

  console.log(`  config:   ${source}`);
  console.log(`  data:     ${config.storage.path} (durability ${config.storage.durability})`);
  console.log(`  channels: ${config.channels.map((c) => c.name).join(", ") || "(none configured; created by their first hook)"}`);
  if (command.forwardTo) console.log(`  forward:  ${command.forwardTo.channel ? `channel ${command.forwardTo.channel}` : "every channel"} -> ${command.forwardTo.url}`);
  console.log(`  api keys: ${keys.map((k) => k.label).join(", ")}`);
  const localSha256 = keys.find((k) => k.label === LOCAL_KEY)?.sha256;
  const saved = saveLocalCredentials({ dbPath: config.storage.path, host: config.server.host, port: server.port ?? config.server.port, localSha256, generated: generated?.token });
  for (const line of saved) console.log(line);
  // Last, so that whoever waits for this line has everything above it.
  console.log(`mailroom ${VERSION} listening on http://${server.hostname}:${server.port}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: finishing in-flight requests`);
    await server.stop(false);
    await built.close();
    await runner.stop();
    await checkpointer?.close();
    db.$client.close();
    log.info("stopped");
    stdout.flush();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  return -1;
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error) => {
    console.error("mailroom: could not start:", error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
