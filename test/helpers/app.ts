import type { Notify } from "../../src/notify/notice";
import { buildConfig } from "../../src/load-config";
import { openDatabase } from "../../src/db/sqlite/open";
import { createSqliteStorage } from "../../src/db/sqlite/storage";
import { createApp } from "../../src/app";
import { createRunner } from "../../src/runner";
import { silentLog, type Log } from "../../src/lib/log";
import { serve } from "../../src/server";
import { createMetrics } from "../../src/metrics";
import { createFakeClock, type FakeClock } from "./clock";
import { httpClient, TOKEN } from "./client";

export { AUTH, TOKEN } from "./client";

/**
 * A whole Mailroom on an in-memory (or given) database with a fake clock. `raw` is the TOML
 * config as an object; an api key labelled "test" with TOKEN is added unless api_keys is given.
 */
export function createTestApp(
  raw: Record<string, any> = {},
  opts: {
    env?: Record<string, string>;
    dbPath?: string;
    random?: () => number;
    syncWal?: () => Promise<void>;
    channelDeleteBatch?: number;
    log?: Log;
    heartbeatMs?: number;
    searchGatherMs?: number;
    searchMaxWaitingBytes?: number;
    notify?: Notify;
    /** The fake clock (a restart's app goes on from the time the first one stopped at). */
    clock?: FakeClock;
  } = {},
) {
  const config = buildConfig(
    { api_keys: [{ label: "test", token: TOKEN }], ...raw, storage: { path: opts.dbPath ?? ":memory:", ...(raw.storage ?? {}) } },
    opts.env ?? {},
  );
  const clock = opts.clock ?? createFakeClock();
  const db = openDatabase({ path: config.storage.path, durability: config.storage.durability });
  const storage = createSqliteStorage(db, { path: config.storage.path, durability: config.storage.durability, syncWal: opts.syncWal });
  const metrics = createMetrics(config);
  const runner = createRunner({ config, queue: storage.attempts, clock, log: silentLog, random: opts.random, metrics });
  // Start-up's reads (built.ready) finish before the first request through app.handle, which waits for them.
  const built = createApp({
    config,
    storage,
    clock,
    log: opts.log ?? silentLog,
    runner,
    metrics,
    channelDeleteBatch: opts.channelDeleteBatch,
    heartbeatMs: opts.heartbeatMs,
    searchGatherMs: opts.searchGatherMs,
    searchMaxWaitingBytes: opts.searchMaxWaitingBytes,
    notify: opts.notify,
  });

  // Calls the app without a network (app.handle).
  const { call, post, catchHooks } = httpClient((path, init) => built.app.handle(new Request(`http://localhost${path}`, init)));

  /** Starts a real listener on 127.0.0.1, port 0, for tests that need sockets (sender ip, streaming). */
  function listen(listenOpts: { idleTimeout?: number } = {}) {
    const server = serve(built, { host: "127.0.0.1", port: 0, ...listenOpts });
    return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
  }

  /** Closes the database at once (what is not committed yet is lost, as in a crash). */
  function close(): void {
    void built.close();
    void storage.close();
    db.$client.close();
  }

  return { ...built, config, clock, db, storage, runner, call, listen, close, post, catchHooks };
}

export type TestApp = ReturnType<typeof createTestApp>;
