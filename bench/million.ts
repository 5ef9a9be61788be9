/**
 * Issue 32's speed at 1,000,000 hooks (docs/benchmarks.md), on SQLite: fills a data directory
 * (kept with --keep DIR and reused) with N hooks of 20 channels over 7 days (JSON bodies of about
 * 1 KiB, a third of them `refund.created`), statuses weighted as bench/fill.ts does, tags on some
 * (`billing` 30%, `vip` 5%, `big` 1%), an event for every hook that is not pending, the channels'
 * counters exact; indexes them for search by the index thread's sweep; then, through the pieces
 * the executable runs (createApp, requests through app.handle):
 * - a query combining a word, a tag, a status and a date range, GET /v1/hooks?q= (p50, p99);
 * - counting the matches of saved views as the sidebar does, GET /v1/views?include=count, one view each;
 * With --bulk, then starts dist/mailroom on the same directory and runs a bulk retry of every
 * failed hook (about 10%: 100,000 of 1,000,000) while closed-loop senders catch beside it
 * (bench/bulk.ts's measure): the job's hooks/s, and catching's rate during it against alone.
 *
 *   bun run bench/million.ts [--hooks 1000000] [--queries 30] [--keep DIR] [--bulk] [--no-build]
 */
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { monotonicFactory } from "ulid";
import { createApp } from "../src/app";
import { openDatabase } from "../src/db/sqlite/open";
import { createSqliteStorage } from "../src/db/sqlite/storage";
import { buildConfig } from "../src/load-config";
import { systemClock } from "../src/lib/clock";
import { silentLog } from "../src/lib/log";
import { createMetrics } from "../src/metrics";
import { createRunner } from "../src/runner";
import { createThreadedSearch } from "../src/search/threaded";
import { BIN, buildBinary, catching, fmt, median, percentile, post, start, TOKEN } from "./lib";
import { WORDS } from "./search-fill";

const { values: args } = parseArgs({
  options: {
    hooks: { type: "string", default: "1000000" },
    queries: { type: "string", default: "30" },
    keep: { type: "string" },
    bulk: { type: "boolean", default: false },
    senders: { type: "string", default: "8" },
    "no-build": { type: "boolean", default: false },
  },
});
const N = Number(args.hooks);
const DAYS = 7;
const STATUSES = ["pending", "handled", "failed", "discarded"] as const;
const WEIGHTS = [0.3, 0.55, 0.1, 0.05];
const TAGS: [string, number][] = [
  ["billing", 0.3],
  ["vip", 0.05],
  ["big", 0.01],
];
const TYPES = ["order.paid", "order.created", "refund.created"];
const THREAD = new URL("../src/db/sqlite/search-thread.ts", import.meta.url).href;
const dir = args.keep ?? join(tmpdir(), `mailroom-million-${process.pid}`);
const path = join(dir, "data/mailroom.db");
const size = (p: string) => statSync(p, { throwIfNoEntry: false })?.size ?? 0;
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** The times the hooks span: the newest is an hour before the fill. */
const meta = join(dir, "million.json");

function fill(): { end: number } {
  mkdirSync(join(dir, "data"), { recursive: true });
  writeFileSync(
    join(dir, "mailroom.toml"),
    `[server]\nport = 0\n[storage]\npath = "data/mailroom.db"\ndurability = "full"\n[[api_keys]]\nlabel = "bench"\ntoken = "${TOKEN}"\n`,
  );
  const db = openDatabase({ path, durability: "normal" });
  const sql = db.$client;
  sql.run("PRAGMA synchronous = OFF");
  const insertHook = sql.prepare(
    `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, finalized_at, event_type) VALUES (?, ?, ?, 'POST', ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertEvent = sql.prepare("INSERT INTO events (hook_id, kind, actor, message, created_at) VALUES (?, ?, ?, ?, ?)");
  const insertTag = sql.prepare("INSERT INTO hook_tags (hook_id, tag, created_at) VALUES (?, ?, ?)");
  const channels = Array.from({ length: 20 }, (_, i) => `shop-${i}`);
  const counts = new Map(channels.map((c) => [c, { pending: 0, handled: 0, failed: 0, discarded: 0 } as Record<string, number>]));
  const next = monotonicFactory();
  const end = Date.now() - 3_600_000;
  const startAt = end - DAYS * 86_400_000;
  let seed = 1;
  const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), (seed >>> 8) % k);
  const chance = (p: number) => rnd(1_000_000) < p * 1_000_000;
  for (let done = 0; done < N; ) {
    sql.transaction(() => {
      for (const stop = Math.min(N, done + 50_000); done < stop; done++) {
        const at = startAt + Math.floor((done * DAYS * 86_400_000) / N);
        const id = next(at).toLowerCase();
        const type = TYPES[rnd(3)]!;
        const words = Array.from({ length: 120 }, () => WORDS[rnd(WORDS.length)]).join(" ");
        const body = `{"type":"${type}","order":${done},"customer":"cus_${rnd(5000)}","note":"${words}"}`;
        const headers = `{"content-type":"application/json","user-agent":"Shop-Hookshot/1.0","x-shop-topic":"${type}"}`;
        const channel = channels[rnd(channels.length)]!;
        let r = rnd(1_000_000) / 1_000_000;
        let s = 0;
        while (s < WEIGHTS.length - 1 && r >= WEIGHTS[s]!) r -= WEIGHTS[s++]!;
        const status = STATUSES[s]!;
        counts.get(channel)![status]!++;
        const finalized = status === "handled" || status === "discarded" ? at + 1000 : null;
        insertHook.run(id, channel, status, `channel=${channel}`, headers, Buffer.from(body), `203.0.113.${rnd(250)}`, at, finalized, type);
        if (status !== "pending")
          insertEvent.run(id, status, status === "handled" ? "" : "api:ops", status === "failed" ? "receiver answered 500" : "", at + 1000);
        for (const [tag, p] of TAGS) if (chance(p)) insertTag.run(id, tag, at + 2000);
      }
    })();
  }
  const setChannel = sql.prepare("INSERT INTO channels (name, guards, pending, handled, failed, discarded, created_at) VALUES (?, '[]', ?, ?, ?, ?, ?)");
  for (const [name, c] of counts) setChannel.run(name, c.pending!, c.handled!, c.failed!, c.discarded!, startAt);
  sql.run("PRAGMA wal_checkpoint(TRUNCATE)");
  sql.close();
  writeFileSync(meta, JSON.stringify({ end, hooks: N }));
  return { end };
}

let t0 = performance.now();
const { end } = existsSync(meta) ? (JSON.parse(await Bun.file(meta).text()) as { end: number }) : fill();
if (performance.now() - t0 > 1000) console.log(`filled ${N} hooks (tags, events, counters) in ${fmt((performance.now() - t0) / 1000, 1)} s`);
console.log(`data file ${fmt(size(path) / 2 ** 20, 0)} MiB`);

{
  const db = openDatabase({ path, durability: "normal" });
  const storage = createSqliteStorage(db, { path, durability: "normal", searchThreadUrl: THREAD });
  const search = createThreadedSearch({ store: storage.search, thread: storage.searchThread!, changes: storage.changes, log: silentLog });
  (t0 = performance.now()), cpuMs();
  await search.sweep();
  await search.close();
  const s = (performance.now() - t0) / 1000;
  if (s > 5) console.log(`indexed by the index thread's sweep in ${fmt(s, 1)} s`);
  console.log(`index on disk: ${fmt((size(`${path}-search`) + size(`${path}-search-wal`)) / 2 ** 20, 0)} MiB`);
  const config = buildConfig({ api_keys: [{ label: "bench", token: TOKEN }], storage: { path } }, {});
  const metrics = createMetrics(config);
  const runner = createRunner({ config, queue: storage.attempts, clock: systemClock, log: silentLog, metrics });
  const built = createApp({ config, storage, clock: systemClock, log: silentLog, runner, metrics });
  await built.ready;
  await built.search.flush();
  const call = async (url: string, init?: RequestInit) => {
    const res = await built.app.handle(
      new Request(`http://localhost${url}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" } }),
    );
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  const times = Number(args.queries);
  const iso = (ms: number) => new Date(ms).toISOString();
  const DAY = 86_400_000;
  // A 2-day range that moves back an hour each time, inside the 7 days.
  const range = (i: number) => `after:${iso(end - 3 * DAY - i * 3_600_000)} before:${iso(end - DAY - i * 3_600_000)}`;
  for (const [label, q] of [
    ["word + tag + status + 2 days", "refund tag:vip status:failed #"],
    ["common word + tag + status + 2 days", "foxtrot tag:billing status:failed #"],
    ["word + rare tag + status + 2 days", "refund tag:big status:pending #"],
    ["field term + tag + status + 2 days", "type:refund.created tag:vip status:handled #"],
  ] as const) {
    const ms: number[] = [];
    let found = 0;
    for (let i = 0; i < times; i++) {
      const t = performance.now();
      found = (await call(`/v1/hooks?limit=50&q=${encodeURIComponent(q.replace("#", range(i)))}`)).length;
      ms.push(performance.now() - t);
    }
    console.log(`GET /v1/hooks?q= ${label.padEnd(38)} p50 ${fmt(median(ms))} ms  p99 ${fmt(percentile(ms, 99))} ms  (${found} on the page)`);
  }
  // Each view alone: the sidebar's count of one view (GET /v1/views?include=count counts them all).
  const views = [
    ["vip-failed", "tag:vip status:failed"],
    ["refunds-vip-week", `refund tag:vip after:-7d`],
    ["shop-3-failed", "status:failed channel:shop-3"],
    ["big-refunds", "refund tag:big"],
    ["billing", "tag:billing"],
    ["foxtrot-failed", "foxtrot status:failed"],
  ] as const;
  for (const [name, query] of views) {
    const list = await call("/v1/views");
    for (const v of list)
      await built.app.handle(new Request(`http://localhost/v1/views/${v.name}`, { method: "DELETE", headers: { authorization: `Bearer ${TOKEN}` } }));
    await call("/v1/views", { method: "POST", body: JSON.stringify({ name, query }) });
    const ms: number[] = [];
    let counted: any;
    for (let i = 0; i < Math.max(5, Math.floor(times / 3)); i++) {
      const t = performance.now();
      [counted] = await call("/v1/views?include=count");
      ms.push(performance.now() - t);
    }
    console.log(
      `view count ${query.padEnd(30)} p50 ${fmt(median(ms))} ms  p99 ${fmt(percentile(ms, 99))} ms  (count ${counted.count}${counted.count_exact ? "" : ", at least"})`,
    );
  }
  await built.close();
  await storage.close();
}

if (args.bulk) {
  if (!args["no-build"]) buildBinary();
  const server = await start([BIN], { cwd: dir });
  try {
    const failed = await post(server.url, "/v1/hooks/bulk", { query: "status:failed", action: "retry", dry_run: true });
    const senders = Number(args.senders);
    const aloneEnd = performance.now() + 5000;
    const alone = await catching(server.url, senders, () => performance.now() > aloneEnd);
    let running = true;
    const during = catching(server.url, senders, () => !running);
    const t = performance.now();
    const job = await post(server.url, "/v1/hooks/bulk", { query: "status:failed", action: "retry" });
    const snapshotMs = performance.now() - t;
    let now = job;
    while (now.state === "running") {
      await Bun.sleep(100);
      now = await (await fetch(`${server.url}/v1/hooks/bulk/${job.id}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
    }
    const seconds = (performance.now() - t) / 1000;
    running = false;
    const rate = await during;
    console.log(
      `bulk retry of status:failed (${failed.count} hooks among ${N}): ${now.state}, ${now.done} retried, ${now.skipped} skipped in ${fmt(seconds, 1)} s (snapshot ${fmt(snapshotMs, 0)} ms): ${fmt(now.done / seconds, 0)} hooks/s`,
    );
    console.log(
      `catching (${senders} closed-loop senders): alone ${fmt(alone, 0)} hooks/s, during the job ${fmt(rate, 0)} hooks/s (${fmt((100 * rate) / alone, 0)}%)`,
    );
  } finally {
    await server.stop();
  }
}
if (!args.keep) rmSync(dir, { recursive: true, force: true });
