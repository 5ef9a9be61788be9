import { buildConfig } from "../../src/config/load";
import { openDatabase } from "../../src/db/open";
import { createApp } from "../../src/app";
import { resolveApiKeys } from "../../src/hooks/auth";
import { createRunner } from "../../src/runner";
import { silentLog, type Log } from "../../src/lib/log";
import { serve } from "../../src/server";
import { createMetrics } from "../../src/metrics";
import { createFakeClock } from "./clock";

export const TOKEN = "test-token-0123456789";
export const AUTH = { authorization: `Bearer ${TOKEN}` };

/**
 * A whole Mailroom on an in-memory (or given) database with a fake clock. `raw` is the TOML
 * config as an object; an api key labelled "test" with TOKEN is added unless api_keys is given.
 */
export function createTestApp(raw: Record<string, any> = {}, opts: { env?: Record<string, string>; dbPath?: string; random?: () => number; syncWal?: () => Promise<void>; channelDeleteBatch?: number; log?: Log; heartbeatMs?: number } = {}) {
  const config = buildConfig(
    { api_keys: [{ label: "test", token: TOKEN }], ...raw, storage: { path: opts.dbPath ?? ":memory:", ...(raw.storage ?? {}) } },
    opts.env ?? {},
  );
  const clock = createFakeClock();
  const db = openDatabase({ path: config.storage.path, durability: config.storage.durability });
  const metrics = createMetrics(config);
  const runner = createRunner({ config, db, clock, log: silentLog, random: opts.random, metrics });
  const { keys } = resolveApiKeys(config, db, clock.now());
  const built = createApp({ config, db, clock, log: opts.log ?? silentLog, runner, apiKeys: keys, metrics, syncWal: opts.syncWal, channelDeleteBatch: opts.channelDeleteBatch, heartbeatMs: opts.heartbeatMs });

  /** Calls the app without a network (app.handle); JSON bodies are serialised. */
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = AUTH) {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] ??= "application/json";
    }
    const res = await built.app.handle(new Request(`http://localhost${path}`, init));
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  /** Starts a real listener on 127.0.0.1, port 0, for tests that need sockets (sender ip, streaming). */
  function listen(listenOpts: { idleTimeout?: number } = {}) {
    const server = serve(built, { host: "127.0.0.1", port: 0, ...listenOpts });
    return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
  }

  /** Closes the database at once (what is not committed yet is lost, as in a crash). */
  function close(): void {
    void built.close();
    db.$client.close();
  }

  /** Sends one hook through the catching endpoint, without a network. */
  function post(channel: string, body: string | Uint8Array = "{}", headers: Record<string, string> = {}): Promise<Response> {
    return built.app.handle(new Request(`http://localhost/?channel=${channel}`, { method: "POST", body, headers }));
  }

  /** Catches `n` hooks with bodies {"n": i} into a channel, 100 at a time at once; their ids in order. */
  async function catchHooks(channel: string, n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 100) {
      const batch = Array.from({ length: Math.min(100, n - i) }, (_, k) => post(channel, `{"n":${i + k}}`).then((r) => r.json()));
      ids.push(...((await Promise.all(batch)) as { id: string }[]).map((r) => r.id));
    }
    return ids;
  }

  return { ...built, config, clock, db, runner, call, listen, close, post, catchHooks };
}

export type TestApp = ReturnType<typeof createTestApp>;
