import { resolve } from "node:path";
import type { CommandConfig } from "../../config/handlers";
import type { RawHook } from "../../hooks/store";
import { readBounded } from "../excerpt";
import { toHookJson } from "../hook-json";
import { errorMessage, withoutEnvKeys, type AttemptContext, type AttemptResult, type HandlerPolicy } from "./types";

/** Joins the two outputs into one excerpt, naming each when both said something. */
function outputExcerpt(stdout: string, stderr: string): string {
  if (!stderr) return stdout;
  if (!stdout) return `stderr: ${stderr}`;
  return `stdout: ${stdout}\nstderr: ${stderr}`;
}

/**
 * Runs the program with the hook as JSON on standard input; exit code 0 is success. A program
 * still running after the timeout is killed (SIGKILL: a handler that ignores SIGTERM must not
 * hold a slot for ever). `baseDir` resolves a relative cwd.
 */
/** What a program gets of Mailroom's environment unless `inherit_env` is set: nothing secret. */
const BASE_ENV = ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR"];

export function createCommand(config: CommandConfig, policy: HandlerPolicy, baseDir: string) {
  const cwd = resolve(baseDir, config.cwd ?? ".");
  const extraEnv = withoutEnvKeys(config.env);
  const baseEnv = config.inherit_env
    ? process.env
    : Object.fromEntries(BASE_ENV.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
  return async function run(hook: RawHook, { attempt }: AttemptContext): Promise<AttemptResult> {
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
      });
    } catch (error) {
      return { ok: false, excerpt: "", error: `could not start ${config.argv[0]}: ${errorMessage(error)}` };
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      proc.kill("SIGKILL");
    }, policy.timeout);
    const [stdout, stderr, exitCode] = await Promise.all([readBounded(proc.stdout), readBounded(proc.stderr), proc.exited]);
    clearTimeout(timer);
    const excerpt = outputExcerpt(stdout, stderr);
    if (timedOut) return { ok: false, excerpt, error: `killed after ${policy.timeout} ms without exiting` };
    if (exitCode === 0) return { ok: true, exitCode, excerpt, error: "" };
    const signal = proc.signalCode ? ` (${proc.signalCode})` : "";
    return { ok: false, exitCode, excerpt, error: `exited with code ${exitCode}${signal}` };
  };
}
