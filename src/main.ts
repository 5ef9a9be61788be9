#!/usr/bin/env bun
/**
 * The entry point: reads argv and loads only what the command needs. `--version`, `--help` and a
 * usage mistake load the table of commands and nothing else (cli/commands.ts); each command loads
 * its own module: the client commands their client, serve and the commands of run.ts the server,
 * the database drivers and the dashboard.
 */
import "./production";
import { runCli } from "./cli/dispatch";
import { exitAfterOutput, processIo } from "./lib/io";
import { VERSION } from "./lib/version";

// A command's output may still be on its way into a pipe when it returns: the process exits once it was written.
runCli(Bun.argv.slice(2), processIo, VERSION).then(
  (code) => {
    if (code >= 0) return exitAfterOutput(code);
  },
  (error) => {
    processIo.err(`mailroom: could not start: ${error instanceof Error ? error.message : error}\n`);
    return exitAfterOutput(1);
  },
);
