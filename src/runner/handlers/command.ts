import { resolve } from "node:path";
import type { CommandConfig } from "../../config/handlers";
import type { RawHook } from "../../hooks/store";
import { EXCERPT_MAX, readBounded } from "../excerpt";
import { toHookJson } from "../hook-json";
import { errorMessage, withoutEnvKeys, type AttemptContext, type AttemptResult, type HandlerPolicy } from "./types";

/** Joins the two outputs into one excerpt, naming each when both said something. */
function outputExcerpt(stdout: string, stderr: string): string {
  if (!stderr) return stdout;
  if (!stdout) return `stderr: ${stderr}`;
  return `stdout: ${stdout}\nstderr: ${stderr}`;
}

/** What a program gets of Mailroom's environment unless `inherit_env` is set: nothing secret. */
const BASE_ENV = ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR"];

/** SIGKILL to every process of the group; a group already gone is not an error. */
function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // ESRCH: nothing of the group is left.
  }
}

/**
 * Runs the program with the hook as JSON on standard input; exit code 0 is success. The program
 * runs in a process group of its own (a new session), and the attempt owns the whole group:
 * - at the timeout every process of it is killed (SIGKILL: a handler that ignores SIGTERM must not
 *   hold a slot for ever) and its output is no longer read, so a child that escaped the group and
 *   keeps the pipes open cannot hold the attempt either;
 * - when the program exits, what it left running in its group is killed (nothing outlives the
 *   attempt, outside every concurrency limit);
 * - when the runner stops (`stopping`), the group is killed at once and the result says
 *   `interrupted`, so the attempt is run again at the next start.
 * `baseDir` resolves a relative cwd.
 */
export function createCommand(config: CommandConfig, policy: HandlerPolicy, baseDir: string) {
  const cwd = resolve(baseDir, config.cwd ?? ".");
  const extraEnv = withoutEnvKeys(config.env);
  const baseEnv = config.inherit_env ? process.env : Object.fromEntries(BASE_ENV.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
  return async function run(hook: RawHook, { attempt, stopping }: AttemptContext): Promise<AttemptResult> {
    let proc: Bun.Subprocess<Blob, "pipe", "pipe">;
    try {
      proc = Bun.spawn({
        cmd: config.argv,
        cwd,
        env: {
          ...baseEnv,
          ...extraEnv,
          MAILROOM_HOOK_ID: hook.id,
          MAILROOM_CHANNEL: hook.channel,
          MAILROOM_ATTEMPT: String(attempt),
        },
        stdin: new Blob([JSON.stringify(toHookJson(hook))]),
        stdout: "pipe",
        stderr: "pipe",
        detached: true, // setsid(): the program leads a new process group, whose id is its pid
      });
    } catch (error) {
      return { ok: false, excerpt: "", error: `could not start ${config.argv[0]}: ${errorMessage(error)}` };
    }
    const group = proc.pid;
    const stopReading = new AbortController();
    let exited = false;
    let timedOut = false;
    let interrupted = false;
    const end = () => {
      killGroup(group);
      stopReading.abort();
    };
    const timer = setTimeout(() => {
      timedOut = !exited;
      end();
    }, policy.timeout);
    const onStop = () => {
      interrupted = !exited;
      end();
    };
    stopping?.addEventListener("abort", onStop, { once: true });
    if (stopping?.aborted) onStop();
    const exit = proc.exited.then((code) => {
      exited = true;
      killGroup(group);
      return code;
    });
    const [stdout, stderr, exitCode] = await Promise.all([
      readBounded(proc.stdout, EXCERPT_MAX, stopReading.signal),
      readBounded(proc.stderr, EXCERPT_MAX, stopReading.signal),
      exit,
    ]);
    clearTimeout(timer);
    stopping?.removeEventListener("abort", onStop);
    const excerpt = outputExcerpt(stdout, stderr);
    if (interrupted) return { ok: false, interrupted: true, excerpt, error: "killed: Mailroom stopped" };
    if (timedOut) return { ok: false, excerpt, error: `killed after ${policy.timeout} ms without exiting` };
    if (exitCode === 0) return { ok: true, exitCode, excerpt, error: "" };
    const signal = proc.signalCode ? ` (${proc.signalCode})` : "";
    return { ok: false, exitCode, excerpt, error: `exited with code ${exitCode}${signal}` };
  };
}
