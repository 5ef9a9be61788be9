/**
 * Search benchmark (docs/search.md): fills a SQLite data file with N hooks (JSON bodies of about
 * 1 KiB from a vocabulary, a rare word in one hook of 50,000), indexes them all through the
 * indexer's sweep (a database that predates the index), then measures, through the search store:
 * a rare free word (p50, p99), a field term (`payload.order:N`, one match; p50, p99) and a common
 * word; the index's size on disk (the data file's growth); and the index's lag while hooks are
 * caught at a given rate (each caught batch is reported to the change sink as the catching writer
 * does; lag = from the report to the index's commit).
 *
 *   bun run bench/search.ts [--hooks 1000000] [--rate 20000] [--seconds 10] [--queries 50] [--keep PATH]
 *
 * Catching with the index on against without it: bench/ingest.ts --compare PATH with PATH an
 * executable built from a commit before the index (docs/search.md has the command).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { monotonicFactory } from "ulid";
import { openDatabase } from "../src/db/open";
import { createSqliteStorage } from "../src/db/sqlite-storage";
import { createSearch } from "../src/hooks/search";
import { parseSearch } from "../src/hooks/search/query";
import type { SearchStore } from "../src/hooks/search/store";
import { systemClock } from "../src/lib/clock";
import { silentLog } from "../src/lib/log";
import { fmt, median, percentile } from "./lib";

const { values: args } = parseArgs({
  options: {
    hooks: { type: "string", default: "1000000" },
    rate: { type: "string", default: "20000" },
    seconds: { type: "string", default: "10" },
    queries: { type: "string", default: "50" },
    keep: { type: "string" },
  },
});
const N = Number(args.hooks);
const WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango".split(" ");
const RARE_EVERY = 50_000;

function fill(path: string): void {
  const db = openDatabase({ path, durability: "normal" });
  const sql = db.$client;
  sql.run("PRAGMA synchronous = OFF");
  const insert = sql.prepare(
    `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, event_type) VALUES (?, ?, 'pending', 'POST', ?, ?, ?, ?, ?, ?)`,
  );
  const next = monotonicFactory();
  const start = Date.now() - 7 * 86_400_000;
  let seed = 1;
  const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), (seed >>> 8) % k);
  for (let done = 0; done < N; ) {
    sql.transaction(() => {
      for (const end = Math.min(N, done + 50_000); done < end; done++) {
        const at = start + Math.floor((done * 7 * 86_400_000) / N);
        const words = Array.from({ length: 120 }, () => WORDS[rnd(WORDS.length)]).join(" ");
        const rare = done % RARE_EVERY === 7 ? ` zanzibar${done}` : "";
        const type = ["order.paid", "order.created", "refund.created"][rnd(3)]!;
        const body = `{"type":"${type}","order":${done},"customer":"cus_${rnd(5000)}","note":"${words}${rare}"}`;
        const headers = `{"content-type":"application/json","user-agent":"Shop-Hookshot/1.0","x-shop-topic":"${type}"}`;
        const channel = `shop-${rnd(20)}`;
        insert.run(next(at).toLowerCase(), channel, `channel=${channel}`, headers, Buffer.from(body), `203.0.113.${rnd(250)}`, at, type);
      }
    })();
  }
  sql.run("PRAGMA wal_checkpoint(TRUNCATE)");
  sql.close();
}

const fileBytes = (path: string) => statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0);

async function timed(store: SearchStore, q: string, times: number): Promise<{ p50: number; p99: number; found: number }> {
  const ms: number[] = [];
  let found = 0;
  for (let i = 0; i < times; i++) {
    const query = q.replace("#", String(((i * 7919) % N) + 1));
    const t0 = performance.now();
    found = (await store.search({ terms: parseSearch(query), limit: 50 })).length;
    ms.push(performance.now() - t0);
  }
  return { p50: median(ms), p99: percentile(ms, 99), found };
}

const dir = args.keep ?? mkdtempSync(join(tmpdir(), "mailroom-search-bench-"));
const path = join(dir, "mailroom.db");
let t0 = performance.now();
if (!args.keep || !statSync(path, { throwIfNoEntry: false })) {
  fill(path);
  console.log(`filled ${N} hooks in ${fmt((performance.now() - t0) / 1000, 1)} s`);
}
const db = openDatabase({ path, durability: "normal" });
const storage = createSqliteStorage(db, { path, durability: "normal" });
const before = fileBytes(path);
const search = createSearch({ store: storage.search, changes: storage.changes, read: (id) => storage.hooks.getHook(id), clock: systemClock, log: silentLog });
t0 = performance.now();
await search.sweep();
db.$client.run("PRAGMA wal_checkpoint(TRUNCATE)");
const indexS = (performance.now() - t0) / 1000;
const after = fileBytes(path);
console.log(
  `indexed in ${fmt(indexS, 1)} s (${fmt(N / indexS, 0)} hooks/s by the sweep); index on disk ${fmt((after - before) / 2 ** 20, 0)} MiB (data file ${fmt(before / 2 ** 20, 0)} MiB before)`,
);

const times = Number(args.queries);
for (const [label, q] of [
  ["rare word", `zanzibar${RARE_EVERY * Math.min(3, Math.floor((N - 8) / RARE_EVERY)) + 7}`], // one that was filled
  ["field term payload.order:N", "payload.order:#"],
  ["field term + word", "payload.order:# hookshot"],
  ["common word (page of 50)", "foxtrot"],
  ["type: term (page of 50)", "type:refund.created"],
] as const) {
  const r = await timed(storage.search, q, times);
  console.log(`${label.padEnd(30)} p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms  (${r.found} found)`);
}

// Lag while catching at --rate: batches inserted and reported every 10 ms, as the writer does.
const rate = Number(args.rate);
const perBatch = Math.max(1, Math.round(rate / 100));
const reported = new Map<string, number>();
const lags: number[] = [];
const index = storage.search.index;
storage.search.index = async (docs) => {
  await index(docs);
  const now = performance.now();
  for (const d of docs) {
    const at = reported.get(d.id);
    if (at !== undefined) lags.push(now - at), reported.delete(d.id);
  }
};
const live = createSearch({ store: storage.search, changes: storage.changes, read: (id) => storage.hooks.getHook(id), clock: systemClock, log: silentLog });
const next = monotonicFactory();
const insert = db.$client.prepare(
  `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, event_type) VALUES (?, 'live', 'pending', 'POST', '', ?, ?, '127.0.0.1', ?, '')`,
);
const headers = '{"content-type":"application/json"}';
const end = performance.now() + Number(args.seconds) * 1000;
let sent = 0;
while (performance.now() < end) {
  const tick = performance.now();
  const rows = Array.from({ length: perBatch }, (_, i) => {
    const body = Buffer.from(`{"n":${sent + i},"note":"${WORDS.join(" ")} ${WORDS.join(" ")}"}`);
    return {
      id: next(Date.now()).toLowerCase(),
      channel: "live",
      method: "POST",
      query: "",
      headers,
      body,
      ip: "127.0.0.1",
      createdAt: Date.now(),
      eventType: "",
    };
  });
  db.$client.transaction(() => {
    for (const r of rows) insert.run(r.id, r.headers, r.body, r.createdAt);
  })();
  const at = performance.now();
  for (const r of rows) reported.set(r.id, at);
  storage.changes.emit({ kind: "caught", hooks: rows });
  sent += rows.length;
  await new Promise((r) => setTimeout(r, Math.max(0, 10 - (performance.now() - tick))));
}
await live.flush();
const seconds = Number(args.seconds);
console.log(
  `lag at ${fmt(sent / seconds, 0)} hooks/s offered (${rate} asked): p50 ${fmt(median(lags))} ms, p99 ${fmt(percentile(lags, 99))} ms, max ${fmt(Math.max(...lags))} ms; ${reported.size} not indexed at the end`,
);
await live.close();
await search.close();
await storage.close();
if (!args.keep) rmSync(dir, { recursive: true, force: true });
