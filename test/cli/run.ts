/**
 * Runs Mailroom's command line from source (`bun src/main.ts ...`), as a user would: a server
 * started in a temporary folder with a TOML config, and one-shot commands with their output.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { startProcess, tempDir, type Running } from "../helpers/binary";

export const MAIN = join(import.meta.dir, "../../src/main.ts");

export type Served = Running & { dir: string; stop: () => Promise<void> };

/** Starts `mailroom serve` on port 0 in a fresh folder, its data there; `args` are extra flags. */
export async function serveFromSource(config: Record<string, any> = {}, args: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const dir = tempDir("mailroom-cli-");
  const full = {
    ...config,
    server: { host: "127.0.0.1", port: 0, ...(config.server ?? {}) },
    storage: { path: join(dir, "data", "mailroom.db"), ...(config.storage ?? {}) },
  };
  writeFileSync(join(dir, "mailroom.toml"), stringify(full));
  const run = await startProcess([process.execPath, MAIN, "serve", "--config", join(dir, "mailroom.toml"), ...args], dir, { NO_COLOR: "", ...env });
  return {
    ...run,
    dir,
    async stop() {
      run.proc.kill("SIGTERM");
      await run.proc.exited;
    },
  };
}

export type Ran = { code: number; stdout: string; stderr: string; bytes: Uint8Array };

/** Runs one command to its end; `stdin` is written to its standard input. */
export async function runCli(args: string[], opts: { cwd?: string; env?: Record<string, string | undefined>; stdin?: string | Uint8Array } = {}): Promise<Ran> {
  const env: Record<string, string | undefined> = { ...process.env, MAILROOM_URL: undefined, MAILROOM_TOKEN: undefined, ...opts.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    cwd: opts.cwd ?? tempDir("mailroom-cwd-"),
    env: env as Record<string, string>,
    stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [bytes, stderr, code] = await Promise.all([new Response(proc.stdout).bytes(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout: new TextDecoder().decode(bytes), stderr, bytes };
}

/** Waits until the server printed a line matching `re` (the real clock decides when). */
export async function waitForOutput(run: Running, re: RegExp, timeout = 10_000): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const line = run
      .output()
      .split("\n")
      .find((l) => re.test(l));
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${re} in:\n${run.output()}`);
    await Bun.sleep(20);
  }
}
