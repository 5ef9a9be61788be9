#!/usr/bin/env bun
/**
 * The entry point: reads argv and loads only what the command needs. `--version` and `--help`
 * load no more than the command line's parser, the client commands (hooks, tail, send...) their
 * client; the server, the database drivers and the dashboard are loaded for the commands of
 * run.ts, which open storage and serve, and stop on SIGINT/SIGTERM.
 */
import "./production";
import { HELP, VERSION, parseArgs } from "./cli";
import { isClientCommand, processIo, runClient } from "./cli/index";

async function main(): Promise<number> {
  if (isClientCommand(Bun.argv.slice(2))) return runClient(Bun.argv.slice(2), processIo, HELP);
  const command = parseArgs(Bun.argv.slice(2));
  if (command.kind === "help") return (console.log(HELP), 0);
  if (command.kind === "version") return (console.log(VERSION), 0);
  if (command.kind === "error") return (console.error(`mailroom: ${command.message}\n\n${HELP}`), 2);
  const { runCommand } = await import("./run");
  return runCommand(command);
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
