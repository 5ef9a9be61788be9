#!/usr/bin/env bun
/**
 * The entry point: reads argv and loads only what the command needs. `--version`, `--help` and a
 * usage mistake load the table of commands and nothing else (cli/commands.ts); each command loads
 * its own module: the client commands their client, serve and the commands of run.ts the server,
 * the database drivers and the dashboard.
 */
import "./production";
import { runCli } from "./cli/dispatch";
import { processIo } from "./cli/io";
import { VERSION } from "./lib/version";

runCli(Bun.argv.slice(2), processIo, VERSION).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error) => {
    console.error("mailroom: could not start:", error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
