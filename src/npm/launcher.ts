/**
 * The `mailroom` command of the npm package (built to bin/mailroom.js, CommonJS for Node 18 and
 * later): runs the executable of this platform's package (or $MAILROOM_BIN) with the same
 * arguments, standard streams and exit code. SIGTERM and SIGHUP are passed on; SIGINT is not,
 * since the terminal sends Ctrl-C to the executable too, and a second SIGINT stops Mailroom without
 * waiting for requests in flight.
 */
import { spawn } from "node:child_process";
import { ExecutableNotFound, findExecutable } from "../testing/platform";

let bin: string;
try {
  bin = findExecutable();
} catch (error) {
  if (!(error instanceof ExecutableNotFound)) throw error;
  process.stderr.write(`mailroom: ${error.message}\n`);
  process.exit(1);
}
const child = spawn(bin, process.argv.slice(2), { stdio: "inherit" });
process.on("SIGINT", () => {});
for (const signal of ["SIGTERM", "SIGHUP"] as const) process.on(signal, () => child.kill(signal));
child.on("error", (error) => {
  process.stderr.write(`mailroom: could not run ${bin}: ${error.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    // Ends the same way, so that whoever started `mailroom` sees the signal.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
