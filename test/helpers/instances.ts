/**
 * Several compiled Mailroom executables on one PostgreSQL database, for the multi-instance tests:
 * each instance has its own config file, port and process; they share the database only.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { buildBinary, startProcess, tempDir, type Running } from "./binary";
import { httpClient, TOKEN, type Reply } from "./client";
import { freshDatabase } from "./postgres";

export type Instance = Running & {
  /** Its folder: mailroom.toml, and data/ (the CLI's credentials). */
  dir: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  post(channel: string, body?: string | Uint8Array, headers?: Record<string, string>, method?: string): Promise<Response>;
  catchHooks(channel: string, n: number): Promise<string[]>;
  /** SIGKILL, and waits for the process to be gone. */
  kill(): Promise<void>;
};

const started: Instance[] = [];

/** Kills every instance started so far (afterEach / afterAll). */
export async function killInstances(): Promise<void> {
  await Promise.all(started.splice(0).map((i) => i.kill()));
}

/** A new, empty database on the test cluster: its URL. */
export const newDatabase = freshDatabase;

/**
 * Starts the executable on the database at `url` with `raw` as the rest of its config (the test
 * token is added unless api_keys is given).
 */
export async function startInstance(url: string, raw: Record<string, any> = {}, env: Record<string, string> = {}): Promise<Instance> {
  const bin = await buildBinary();
  const dir = tempDir("mailroom-instance-");
  const config = {
    api_keys: [{ label: "test", token: TOKEN }],
    ...raw,
    server: { ...(raw.server ?? {}), host: "127.0.0.1", port: 0 },
    storage: { ...(raw.storage ?? {}), url },
  };
  writeFileSync(join(dir, "mailroom.toml"), stringify(config));
  const running = await startProcess([bin, "serve", "--config", join(dir, "mailroom.toml")], dir, { MAILROOM_DATABASE_URL: "", ...env });
  const client = httpClient((path, init) => fetch(`${running.url}${path}`, { redirect: "manual", ...init }));
  const instance: Instance = {
    ...running,
    ...client,
    dir,
    async kill() {
      running.proc.kill("SIGKILL");
      await running.proc.exited;
    },
  };
  started.push(instance);
  return instance;
}

/** Resolves once `check` returns true, polling every 20 ms; throws after `ms`. */
export async function eventually(check: () => Promise<boolean>, ms = 5000, what = "condition"): Promise<number> {
  const t0 = performance.now();
  while (!(await check())) {
    if (performance.now() - t0 > ms) throw new Error(`${what} not met within ${ms} ms`);
    await Bun.sleep(20);
  }
  return performance.now() - t0;
}
