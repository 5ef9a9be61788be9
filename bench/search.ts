/**
 * Search benchmark (docs/search.md), one run for every figure of the search's targets on SQLite:
 * fills a data file with N hooks (JSON bodies of about 1 KiB from a vocabulary, a rare word in one
 * hook of 50,000; kept with --keep DIR and reused), removes its index file, then, through the same
 * pieces the executable runs (the index thread, createApp, requests through app.handle):
 * - indexing every hook by the index thread's sweep (this thread idle): hooks/s and CPU per hook;
 * - the index file's size on disk;
 * - the indexer's rate on caught batches: BURST hooks reported to the change sink at once, as the
 *   catching writer reports them, until a search finds them all (the rate it keeps up with, given a core);
 * - searches over GET /v1/hooks?q=: a rare word, a field term, more (p50, p99);
 * - opening a hook as the split view does (GET /v1/hooks/ID and /v1/hooks/ID/attempts at once).
 * The lag under catching load is bench/search-lag.ts. With --postgres, the same on a throwaway
 * PostgreSQL cluster (indexed on this thread, as PostgreSQL instances do; no burst).
 *
 *   bun run bench/search.ts [--hooks 1000000] [--queries 50] [--burst 20000] [--keep DIR] [--postgres]
 */
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../src/app";
import { buildConfig } from "../src/load-config";
import { openDatabase } from "../src/db/sqlite/open";
import { createSqliteStorage } from "../src/db/sqlite/storage";
import type { Storage } from "../src/db/storage";
import { createSearch } from "../src/search";
import { createThreadedSearch } from "../src/search/threaded";
import { migratePostgres } from "../src/db/pg/migrate";
import { openPostgres } from "../src/db/pg/open";
import { createPostgresStorage } from "../src/db/pg/storage";
import { monotonicFactory } from "ulid";
import { startPostgresCluster, type PostgresCluster } from "../test/helpers/postgres";
import { systemClock } from "../src/lib/clock";
import { silentLog } from "../src/lib/log";
import { createMetrics } from "../src/metrics";
import { createRunner } from "../src/runner";
import { fillPostgres, fillSqlite, RARE_EVERY, WORDS } from "./search-fill";
import { fmt, median, percentile, TOKEN } from "./lib";

const { values: args } = parseArgs({
  options: {
    hooks: { type: "string", default: "1000000" },
    queries: { type: "string", default: "50" },
    burst: { type: "string", default: "20000" },
    keep: { type: "string" },
    postgres: { type: "boolean", default: false },
  },
});
const N = Number(args.hooks);
const THREAD = new URL("../src/db/sqlite/search-thread.ts", import.meta.url).href;
const dir = args.keep ?? mkdtempSync(join(tmpdir(), "mailroom-search-bench-"));
const path = join(dir, "mailroom.db");
const size = (p: string) => statSync(p, { throwIfNoEntry: false })?.size ?? 0;
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

let t0 = performance.now();
let cpu0 = 0;
let storage: Storage;
let cluster: PostgresCluster | undefined;
/** Indexes every hook (the start-up sweep) and prints its rate and CPU (this process's: both threads). */
async function sweepAll(search: { sweep(): Promise<void>; close(): Promise<void> }, who: string): Promise<void> {
  (t0 = performance.now()), (cpu0 = cpuMs());
  await search.sweep();
  const s = (performance.now() - t0) / 1000;
  const cpu = cpuMs() - cpu0;
  await search.close();
  console.log(`indexed ${N} hooks by ${who} in ${fmt(s, 1)} s: ${fmt(N / s, 0)} hooks/s, ${fmt((cpu * 1000) / N, 0)} µs CPU per hook in this process`);
}
if (args.postgres) {
  cluster = await startPostgresCluster({ durable: true });
  const admin = new SQL(cluster.url, { max: 1 });
  await admin.unsafe("CREATE DATABASE bench_search");
  await admin.close();
  const url = new URL(cluster.url);
  url.pathname = "/bench_search";
  const sql = await openPostgres(url.toString());
  await migratePostgres(sql);
  storage = await createPostgresStorage(sql, { instance: "bench", leaseMs: 60_000, log: silentLog });
  await fillPostgres(sql, N);
  console.log(`PostgreSQL 15+ (a throwaway cluster, durable defaults): filled ${N} hooks in ${fmt((performance.now() - t0) / 1000, 1)} s`);
  const read = (id: string) => storage.hooks.getHook(id);
  await sweepAll(createSearch({ store: storage.search, read, clock: systemClock, log: silentLog }), "this thread (PostgreSQL's own CPU not counted)");
  console.log(`index on disk: ${fmt((await storage.search.sizeBytes())! / 2 ** 20, 0)} MiB (hook_search and its trigram indexes)`);
} else {
  if (!size(path)) await fillSqlite(path, N), console.log(`filled ${N} hooks in ${fmt((performance.now() - t0) / 1000, 1)} s`);
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}-search${suffix}`, { force: true });
  const db = openDatabase({ path, durability: "normal" });
  storage = createSqliteStorage(db, { path, durability: "normal", searchThreadUrl: THREAD });
  const thread = storage.searchThread!;
  await sweepAll(createThreadedSearch({ store: storage.search, thread, changes: storage.changes, log: silentLog }), "the index thread's sweep");
  const index = size(`${path}-search`) + size(`${path}-search-wal`);
  console.log(`index on disk: ${fmt(index / 2 ** 20, 0)} MiB (data file ${fmt(size(path) / 2 ** 20, 0)} MiB: ${fmt(index / size(path), 2)} times)`);
}

const config = buildConfig({ api_keys: [{ label: "bench", token: TOKEN }], storage: { path: args.postgres ? ":memory:" : path } }, {});
const metrics = createMetrics(config);
const runner = createRunner({ config, queue: storage.attempts, clock: systemClock, log: silentLog, metrics });
const built = createApp({ config, storage, clock: systemClock, log: silentLog, runner, metrics });
await built.ready;
const get = async (url: string) => {
  const res = await built.app.handle(new Request(`http://localhost${url}`, { headers: { authorization: `Bearer ${TOKEN}` } }));
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ id: string }[]>;
};
await built.search.flush();

if (!args.postgres) {
  // Caught batches of 64 reported at once, as the writer reports them; a search then waits until
  // the thread indexed them all.
  const burst = Number(args.burst);
  const next = monotonicFactory();
  const rows = Array.from({ length: burst }, (_, i) => ({
    id: next().toLowerCase(),
    channel: "burst",
    method: "POST",
    query: "",
    headers: '{"content-type":"application/json"}',
    body: Buffer.from(`{"n":${i},"note":"${WORDS.join(" ")} ${WORDS.slice(0, 8).join(" ")} burst${i}"}`),
    ip: "127.0.0.1",
    createdAt: Date.now(),
    eventType: "",
  }));
  const sql = new Database(path);
  const insert = sql.prepare(
    "INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, event_type) VALUES (?, 'burst', 'pending', 'POST', '', ?, ?, '127.0.0.1', ?, '')",
  );
  sql.transaction(() => rows.forEach((r) => insert.run(r.id, r.headers, r.body, r.createdAt)))();
  sql.close();
  (t0 = performance.now()), (cpu0 = cpuMs());
  for (let i = 0; i < burst; i += 64) storage.changes.emit({ kind: "caught", hooks: rows.slice(i, i + 64) });
  const found = await get(`/v1/hooks?q=burst${burst - 1}`);
  const s = (performance.now() - t0) / 1000;
  console.log(
    `caught batches indexed by the thread: ${burst} hooks in ${fmt(s, 2)} s, ${fmt(burst / s, 0)} hooks/s, ${fmt(((cpuMs() - cpu0) * 1000) / burst, 0)} µs CPU per hook in this process (found: ${found.length})`,
  );
}

async function timed(q: string, times: number): Promise<{ p50: number; p99: number; found: number }> {
  const ms: number[] = [];
  let found = 0;
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    found = (await get(`/v1/hooks?limit=50&q=${encodeURIComponent(q.replace("#", String(((i * 7919) % N) + 1)))}`)).length;
    ms.push(performance.now() - t);
  }
  return { p50: median(ms), p99: percentile(ms, 99), found };
}
const times = Number(args.queries);
for (const [label, q] of [
  ["rare word", `zanzibar${RARE_EVERY * Math.min(3, Math.floor((N - 8) / RARE_EVERY)) + 7}`],
  ["field term payload.order:N", "payload.order:#"],
  ["field term + word", "payload.order:# hookshot"],
  ["prefix term payload.customer:cus_42*", "payload.customer:cus_42*"],
  ["common word (page of 50)", "foxtrot"],
  ["type: term (page of 50)", "type:refund.created"],
  ["absent word", "qwertyuiop"],
] as const) {
  const r = await timed(q, times);
  console.log(`GET /v1/hooks?q=${label.padEnd(36)} p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms  (${r.found} found)`);
}

// Opening a hook in the split view: its two requests at once, for hooks all over the data.
const ids: string[] = [];
for (let i = 0; ids.length < times && i < times * 4; i++) ids.push(...(await get(`/v1/hooks?limit=1&q=payload.order:${(i * 104729) % N}`)).map((h) => h.id));
const open: number[] = [];
for (const id of ids) {
  const t = performance.now();
  await Promise.all([get(`/v1/hooks/${id}`), get(`/v1/hooks/${id}/attempts`)]);
  open.push(performance.now() - t);
}
console.log(`opening a hook (GET /v1/hooks/ID and /attempts at once): p50 ${fmt(median(open))} ms, p99 ${fmt(percentile(open, 99))} ms (${open.length} hooks)`);
await built.close();
await storage.close();
await cluster?.stop();
if (!args.keep) rmSync(dir, { recursive: true, force: true });
