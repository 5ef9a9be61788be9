/**
 * What an HTTP-level test talks to, chosen by MAILROOM_TEST_TARGET:
 *
 * - `source` (the default): the app from src/, in this process, with the system clock and its
 *   runner started and a listener on 127.0.0.1 port 0, as main.ts starts them; requests go over
 *   HTTP, as they do to the executable, so both see the same sender ip and headers.
 * - `executable`: the compiled dist/mailroom (built once per test process with `npm run build`'s
 *   command), started as a process on a temporary data file and port 0; requests go over HTTP.
 * - `executable-pg`: the same executable on PostgreSQL: a fresh database per target on the test
 *   cluster (test/helpers/postgres.ts; MAILROOM_TEST_PG_URL names a running one).
 *
 * A test written against `Target` runs unchanged on all three. Tests that need the fake clock or internals use
 * createTestApp (in-process only) and say so.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { buildConfig } from "../../src/load-config";
import { openDatabase } from "../../src/db/sqlite/open";
import { createSqliteStorage } from "../../src/db/sqlite/storage";
import { createApp } from "../../src/app";
import { createRunner } from "../../src/runner";
import { systemClock } from "../../src/lib/clock";
import { silentLog } from "../../src/lib/log";
import { serve, servePublic } from "../../src/server";
import { buildBinary, startProcess } from "./binary";
import { freshDatabase } from "./postgres";
import { AUTH, httpClient, TOKEN, type FetchPath, type Reply } from "./client";
import { documentedAnswer, specViolation } from "./spec";

export { AUTH, TOKEN, type Reply };

export type TargetName = "source" | "executable" | "executable-pg";
export const TARGET: TargetName = (process.env.MAILROOM_TEST_TARGET as TargetName | undefined) ?? "source";
if (!["source", "executable", "executable-pg"].includes(TARGET)) throw new Error(`MAILROOM_TEST_TARGET: unknown target ${TARGET}`);

export interface Target {
  readonly name: TargetName;
  /** A JSON call; `body` objects are serialised with content-type JSON; headers default to the test token. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** A raw request to a path (with query) of the target. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Sends one hook through the catching endpoint. */
  post(channel: string, body?: string | Uint8Array, headers?: Record<string, string>, method?: string): Promise<Response>;
  /** Catches `n` hooks with bodies {"n": i}, up to 100 in flight; their ids in order. */
  catchHooks(channel: string, n: number): Promise<string[]>;
  /** A listening address (http://127.0.0.1:PORT) for tests that need a socket: raw requests, sender ip. */
  url(): Promise<string>;
  /** The public listener's address ([server.public]), or undefined without one. */
  publicUrl(): string | undefined;
  /** What the process printed so far (executable only; "" in process). */
  output(): string;
  stop(): Promise<void>;
}

export type TargetOptions = {
  /** Environment variables the config reads (secret_env, token_env, ...). */
  env?: Record<string, string>;
  /** Keep the default test api key out (the config gives its own). */
  noTestKey?: boolean;
};

/** Targets started inside the running test (stopped after it) and the others (from a beforeAll). */
const running = new Map<Target, "test" | "file">();
let inTest = false;

/**
 * Called by the preload (test/helpers/production.ts) around every test: a target started inside a
 * test stops after it; one started in a beforeAll is stopped by its file's afterAll, and whatever
 * is left at the end of the run is stopped then. No process or runner loop outlives its test.
 */
export const targetLifecycle = {
  testStarts(): void {
    inTest = true;
  },
  async testEnded(): Promise<void> {
    inTest = false;
    await Promise.all([...running].filter(([, scope]) => scope === "test").map(([t]) => t.stop()));
  },
  async runEnded(): Promise<void> {
    await Promise.all([...running.keys()].map((t) => t.stop()));
  },
};

/** Starts a Mailroom on the chosen target with `raw` as its config (the TOML file's shape). */
export async function startTarget(raw: Record<string, any> = {}, opts: TargetOptions = {}): Promise<Target> {
  const config = opts.noTestKey || raw.api_keys ? raw : { api_keys: [{ label: "test", token: TOKEN }], ...raw };
  const target = TARGET === "source" ? await startSource(config, opts) : await startExecutable(config, opts, TARGET);
  running.set(target, inTest ? "test" : "file");
  const stop = target.stop;
  let stopped: Promise<void> | undefined;
  target.stop = () => {
    running.delete(target);
    return (stopped ??= stop());
  };
  return target;
}

async function startSource(raw: Record<string, any>, opts: TargetOptions): Promise<Target> {
  const config = buildConfig({ ...raw, storage: { path: ":memory:", ...(raw.storage ?? {}) } }, opts.env ?? {});
  const db = openDatabase({ path: config.storage.path, durability: config.storage.durability });
  const storage = createSqliteStorage(db, { path: config.storage.path, durability: config.storage.durability });
  const runner = createRunner({ config, queue: storage.attempts, clock: systemClock, log: silentLog });
  const built = createApp({ config, storage, clock: systemClock, log: silentLog, runner });
  await built.ready;
  runner.start();
  const server = serve(built, { host: "127.0.0.1", port: 0 });
  const pub = config.server.public && servePublic(built, { host: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${server.port}`;
  const fetchPath = (path: string, init?: RequestInit) => fetch(`${url}${path}`, { redirect: "manual", ...init });
  return withClient("source", fetchPath, {
    url: async () => url,
    publicUrl: () => pub && `http://127.0.0.1:${pub.port}`,
    output: () => "",
    async stop() {
      await server.stop(true);
      await pub?.stop(true);
      await runner.stop();
      await built.close();
      await storage.close();
    },
  });
}

/**
 * For tests that write their own config file and start the executable (the browser tests): the
 * `[storage]` lines that put it on the chosen backend (a fresh database on executable-pg).
 */
export async function storageToml(path: string, durability: "full" | "normal" = "normal"): Promise<string> {
  const url = TARGET === "executable-pg" ? `url = "${await freshDatabase()}"\n` : "";
  return `[storage]\npath = "${path}"\ndurability = "${durability}"\n${url}`;
}

/** PostgreSQL databases of the targets started with a given [storage] path. */
const databases = new Map<string, Promise<string>>();
function databaseFor(path: string | undefined): Promise<string> {
  if (path === undefined) return freshDatabase();
  let url = databases.get(path);
  if (!url) databases.set(path, (url = freshDatabase()));
  return url;
}

async function startExecutable(raw: Record<string, any>, opts: TargetOptions, name: "executable" | "executable-pg"): Promise<Target> {
  const bin = await buildBinary();
  const dir = mkdtempSync(join(tmpdir(), "mailroom-target-"));
  // The data file's folder also holds the local CLI credentials, on PostgreSQL too. A test that
  // starts again on the same [storage] path (a restart) gets the same database there.
  const storage = {
    path: join(dir, "mailroom.db"),
    ...(name === "executable-pg" ? { url: await databaseFor(raw.storage?.path) } : {}),
    ...(raw.storage ?? {}),
  };
  const server = { ...(raw.server ?? {}), host: "127.0.0.1", port: 0 };
  if (server.public) server.public = { ...server.public, host: "127.0.0.1", port: 0 };
  // Loopback and no user would open the dashboard without sign-in (auth unset): the in-process target's "password" unless a test says.
  const dashboard = { auth: "password", ...(raw.dashboard ?? {}) };
  const config = { ...raw, server, storage, dashboard };
  writeFileSync(join(dir, "mailroom.toml"), stringify(config));
  const run = await startProcess([bin, "serve", "--config", join(dir, "mailroom.toml")], dir, opts.env ?? {});
  const fetchPath = (path: string, init?: RequestInit) => fetch(`${run.url}${path}`, { redirect: "manual", ...init });
  const publicUrl = /public: +(http:\/\/\S+)/.exec(run.output())?.[1];
  return withClient(name, fetchPath, {
    url: async () => run.url,
    publicUrl: () => publicUrl,
    output: run.output,
    async stop() {
      run.proc.kill("SIGKILL");
      await run.proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

function withClient(name: TargetName, fetchPath: FetchPath, rest: Pick<Target, "url" | "publicUrl" | "output" | "stop">): Target {
  return { name, ...httpClient(checkedAgainstSpec(fetchPath)), ...rest };
}

/**
 * Every 200 answer of a route the interface document describes is checked against its tables
 * (test/helpers/spec.ts: no property besides the document's) before the test sees it, unless the
 * request asked for more (`include=extensions`, `fields=summary`). An answer that is not what the
 * document says rejects the request, which fails the test that made it.
 */
function checkedAgainstSpec(fetchPath: FetchPath): FetchPath {
  return async (path, init) => {
    const res = await fetchPath(path, init);
    const method = init?.method ?? "GET";
    if (res.status !== 200 || !documentedAnswer(method, path)) return res;
    const violation = specViolation(method, path, await res.clone().text());
    if (violation) throw new Error(`answer outside the interface document: ${violation}`);
    return res;
  };
}

/**
 * Waits until `probe` returns something other than undefined, asking again every 20 ms; throws with
 * `what` after `timeout` ms. For outcomes the real clock decides (a handler attempt), not for timing.
 */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeout = 10_000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}
