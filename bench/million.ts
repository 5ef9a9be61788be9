/**
 * Issue 32's speed at 1,000,000 hooks (docs/benchmarks.md), on SQLite (or, with --postgres, on the
 * cluster MAILROOM_TEST_PG_URL names, in its database `million`, `million_N` for another --hooks N): fills a data directory
 * (kept with --keep DIR and reused) with N hooks of 20 channels over 7 days (JSON bodies of about
 * 1 KiB, a third of them `refund.created`), statuses weighted as bench/fill.ts does, tags on some
 * (`billing` 30%, `vip` 5%, `big` 1%), an event for every hook that is not pending, the channels'
 * counters exact; indexes them for search by the index thread's sweep; then, through the pieces
 * the executable runs (createApp, requests through app.handle):
 * - a query combining a word, a tag, a status and a date range, GET /v1/hooks?q= (p50, p99);
 * - counting the matches of saved views as the sidebar does, GET /v1/views?include=count, one view each
 *   (bench/views.ts, or `--views 'Q1|Q2'`);
 * With --bulk, then starts dist/mailroom on the same directory and runs a bulk retry of every
 * failed hook (about 10%: 100,000 of 1,000,000) while closed-loop senders catch beside it
 * (bench/bulk.ts's measure; with --rate N, hooks offered at a steady N a second instead, open loop,
 * as providers send, with their latencies): the job's hooks/s, and catching's rate during it against its rate
 * alone before and after (5 s each, --alone). A run puts back to failed the hooks an earlier run retried.
 *
 *   bun run bench/million.ts [--hooks 1000000] [--queries 30] [--keep DIR] [--bulk [--rounds 3] [--alone 5] [--compare PATH]] [--no-queries] [--views 'Q1|Q2'] [--postgres] [--no-build]
 *
 * --alone: the seconds of each window of catching alone, before and after the job (catching's rate
 * alone moves by a third between two windows of 5 s: longer ones tell closer shares apart).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { monotonicFactory } from "ulid";
import { SQL } from "bun";
import { createApp } from "../src/app";
import { migratePostgres } from "../src/db/pg/migrate";
import { openPostgres } from "../src/db/pg/open";
import { fieldToken } from "../src/db/pg/search-store";
import { createPostgresStorage } from "../src/db/pg/storage";
import { hookIpInet } from "../src/schema/pg/ip";
import type { Storage } from "../src/db/storage";
import { decodePayload } from "../src/hooks/payload";
import { searchDoc } from "../src/search/document";
import { openDatabase } from "../src/db/sqlite/open";
import { createSqliteStorage } from "../src/db/sqlite/storage";
import { buildConfig } from "../src/load-config";
import { systemClock } from "../src/lib/clock";
import { silentLog } from "../src/lib/log";
import { createMetrics } from "../src/metrics";
import { createRunner } from "../src/runner";
import { createThreadedSearch } from "../src/search/threaded";
import { BIN, buildBinary, catching, fmt, median, percentile, post, start, steady, TOKEN } from "./lib";
import { WORDS } from "./search-fill";
import { MORE_VIEWS, PAGE_QUERIES, pageQuery, SIX_VIEWS } from "./views";

const { values: args } = parseArgs({
  options: {
    hooks: { type: "string", default: "1000000" },
    queries: { type: "string", default: "30" },
    keep: { type: "string" },
    bulk: { type: "boolean", default: false },
    "no-queries": { type: "boolean", default: false },
    senders: { type: "string", default: "8" },
    rate: { type: "string" },
    alone: { type: "string", default: "5" },
    postgres: { type: "boolean", default: false },
    rounds: { type: "string", default: "3" },
    compare: { type: "string" },
    "no-build": { type: "boolean", default: false },
    views: { type: "string" },
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

type Row = {
  id: string;
  channel: string;
  status: (typeof STATUSES)[number];
  headers: string;
  body: string;
  ip: string;
  at: number;
  finalized: number | null;
  type: string;
  tags: string[];
};

/** The hooks of the fill, oldest first (the same on both backends), and the channels' counters as they go. */
function* rows(end: number, counts: Map<string, Record<string, number>>): Generator<Row> {
  const channels = [...counts.keys()];
  const next = monotonicFactory();
  const startAt = end - DAYS * 86_400_000;
  let seed = 1;
  const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), (seed >>> 8) % k);
  const chance = (p: number) => rnd(1_000_000) < p * 1_000_000;
  for (let done = 0; done < N; done++) {
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
    const ip = `203.0.113.${rnd(250)}`;
    const tags = TAGS.filter(([, p]) => chance(p)).map(([tag]) => tag);
    yield { id, channel, status, headers, body, ip, at, finalized, type, tags };
  }
}

const channelNames = Array.from({ length: 20 }, (_, i) => `shop-${i}`);
const newCounts = () => new Map(channelNames.map((c) => [c, { pending: 0, handled: 0, failed: 0, discarded: 0 } as Record<string, number>]));
/** A hook's event as the fill writes it: none for a pending hook. */
const eventOf = (r: Row) =>
  r.status === "pending"
    ? undefined
    : { kind: r.status, actor: r.status === "handled" ? "" : "api:ops", message: r.status === "failed" ? "receiver answered 500" : "", at: r.at + 1000 };

function writeToml(storage: string): void {
  mkdirSync(join(dir, "data"), { recursive: true });
  writeFileSync(
    join(dir, "mailroom.toml"),
    `[server]\nport = 0\n[storage]\npath = "data/mailroom.db"\ndurability = "full"\n${storage}[[api_keys]]\nlabel = "bench"\ntoken = "${TOKEN}"\n`,
  );
}

function fill(): { end: number } {
  writeToml("");
  const db = openDatabase({ path, durability: "normal" });
  const sql = db.$client;
  sql.run("PRAGMA synchronous = OFF");
  const insertHook = sql.prepare(
    `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, finalized_at, event_type) VALUES (?, ?, ?, 'POST', ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertEvent = sql.prepare("INSERT INTO events (hook_id, kind, actor, message, created_at) VALUES (?, ?, ?, ?, ?)");
  const insertTag = sql.prepare("INSERT INTO hook_tags (hook_id, tag, created_at) VALUES (?, ?, ?)");
  const counts = newCounts();
  const end = Date.now() - 3_600_000;
  const all = rows(end, counts);
  let more = true;
  while (more) {
    sql.transaction(() => {
      for (let i = 0; i < 50_000; i++) {
        const next = all.next();
        if (next.done) return void (more = false);
        const r = next.value;
        insertHook.run(r.id, r.channel, r.status, `channel=${r.channel}`, r.headers, Buffer.from(r.body), r.ip, r.at, r.finalized, r.type);
        const ev = eventOf(r);
        if (ev) insertEvent.run(r.id, ev.kind, ev.actor, ev.message, ev.at);
        for (const tag of r.tags) insertTag.run(r.id, tag, r.at + 2000);
      }
    })();
  }
  const setChannel = sql.prepare("INSERT INTO channels (name, guards, pending, handled, failed, discarded, created_at) VALUES (?, '[]', ?, ?, ?, ?, ?)");
  for (const [name, c] of counts) setChannel.run(name, c.pending!, c.handled!, c.failed!, c.discarded!, end - DAYS * 86_400_000);
  sql.run("PRAGMA wal_checkpoint(TRUNCATE)");
  sql.close();
  writeFileSync(meta, JSON.stringify({ end, hooks: N }));
  return { end };
}

/** The search index's trigram indexes (drizzle-pg/0004_search_index.sql), built once the rows are in: far faster than row by row. */
const PG_SEARCH_INDEXES = [
  `CREATE INDEX "hook_search_text" ON "hook_search" USING gin ("text" gin_trgm_ops)`,
  `CREATE INDEX "hook_search_fields" ON "hook_search" USING gin ("fields" gin_trgm_ops)`,
];
/** The senders' addresses for ip: (drizzle-pg/0024_hooks_ip_index.sql), likewise built after the rows. */
const PG_IP_INDEX = `CREATE INDEX "hooks_ip_id" ON "hooks" USING btree (${hookIpInet('"ip"')}, "id")`;

/**
 * The same hooks on PostgreSQL (database `million` of the cluster MAILROOM_TEST_PG_URL names):
 * rows in multi-row statements (unnest of arrays, 2,000 hooks each), their search documents as the
 * index writes them (db/pg/search-store.ts), the trigram indexes built after, counters in slot 0.
 */
async function fillPostgres(url: string): Promise<{ end: number }> {
  writeToml(`url = "${url}"\n`);
  const sql = await openPostgres(url, { max: 1 });
  await migratePostgres(sql);
  await sql.unsafe(`DROP INDEX IF EXISTS "hook_search_text"`);
  await sql.unsafe(`DROP INDEX IF EXISTS "hook_search_fields"`);
  await sql.unsafe(`DROP INDEX IF EXISTS "hooks_ip_id"`);
  const counts = newCounts();
  const end = Date.now() - 3_600_000;
  const BATCH = 2000;
  let batch: Row[] = [];
  const flush = async (b: Row[]) => {
    const events = b.flatMap((r) => {
      const ev = eventOf(r);
      return ev ? [{ id: r.id, ...ev }] : [];
    });
    const tags = b.flatMap((r) => r.tags.map((tag) => ({ id: r.id, tag, at: r.at + 2000 })));
    const docs = await Promise.all(
      b.map(async (r) => {
        const headers = JSON.parse(r.headers) as Record<string, string>;
        const body = Buffer.from(r.body);
        const hook = { id: r.id, channel: r.channel, method: "POST", query: `channel=${r.channel}`, ip: r.ip, headers, body, eventType: r.type };
        const doc = searchDoc(hook, await decodePayload(headers, body));
        return { id: r.id, text: doc.text, fields: doc.fields + doc.lines.map(([n, v]) => fieldToken(`${n}=${v}`)).join("") };
      }),
    );
    await sql.begin(async (tx) => {
      await tx.unsafe(
        `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, finalized_at, event_type)
         SELECT id, channel, status, 'POST', 'channel=' || channel, headers, convert_to(body, 'UTF8'), ip, at, fin, type
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::text[])
           AS u(id, channel, status, headers, body, ip, at, fin, type)`,
        [
          b.map((r) => r.id),
          b.map((r) => r.channel),
          b.map((r) => r.status),
          b.map((r) => r.headers),
          b.map((r) => r.body),
          b.map((r) => r.ip),
          b.map((r) => r.at),
          b.map((r) => r.finalized),
          b.map((r) => r.type),
        ],
      );
      await tx.unsafe(
        `INSERT INTO events (hook_id, kind, actor, message, created_at) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])`,
        [events.map((e) => e.id), events.map((e) => e.kind), events.map((e) => e.actor), events.map((e) => e.message), events.map((e) => e.at)],
      );
      if (tags.length > 0)
        await tx.unsafe(`INSERT INTO hook_tags (hook_id, tag, created_at) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])`, [
          tags.map((t) => t.id),
          tags.map((t) => t.tag),
          tags.map((t) => t.at),
        ]);
      await tx.unsafe(`INSERT INTO hook_search (id, text, fields) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`, [
        docs.map((d) => d.id),
        docs.map((d) => d.text),
        docs.map((d) => d.fields),
      ]);
    });
  };
  for (const r of rows(end, counts)) {
    batch.push(r);
    if (batch.length === BATCH) await flush(batch), (batch = []);
  }
  if (batch.length > 0) await flush(batch);
  for (const [name, c] of counts) {
    await sql.unsafe(`INSERT INTO channels (name, guards, created_at) VALUES ($1, '[]', $2)`, [name, end - DAYS * 86_400_000]);
    await sql.unsafe(`INSERT INTO channel_counts (channel, slot, pending, handled, failed, discarded) VALUES ($1, 0, $2, $3, $4, $5)`, [
      name,
      c.pending,
      c.handled,
      c.failed,
      c.discarded,
    ]);
  }
  const t = performance.now();
  await sql.unsafe(`SET maintenance_work_mem = '256MB'`);
  for (const create of PG_SEARCH_INDEXES) await sql.unsafe(create);
  const ip = performance.now();
  await sql.unsafe(PG_IP_INDEX);
  console.log(`hooks_ip_id built in ${fmt((performance.now() - ip) / 1000, 1)} s`);
  await sql.unsafe("VACUUM ANALYZE");
  console.log(`trigram indexes built and tables analysed in ${fmt((performance.now() - t) / 1000, 1)} s`);
  await sql.close();
  writeFileSync(meta, JSON.stringify({ end, hooks: N, postgres: true }));
  return { end };
}

const pgUrl = args.postgres ? await databaseOf(process.env.MAILROOM_TEST_PG_URL, N === 1_000_000 ? "million" : `million_${N}`) : undefined;
let t0 = performance.now();
const { end } = existsSync(meta) ? (JSON.parse(await Bun.file(meta).text()) as { end: number }) : pgUrl ? await fillPostgres(pgUrl) : fill();
if (performance.now() - t0 > 1000) console.log(`filled ${N} hooks (tags, events, counters) in ${fmt((performance.now() - t0) / 1000, 1)} s`);

if (pgUrl) {
  const sql = await openPostgres(pgUrl, { max: 4 });
  const [{ bytes }] = await sql.unsafe(`SELECT pg_database_size(current_database())::float8 AS bytes`);
  console.log(`database ${fmt(bytes / 2 ** 20, 0)} MiB`);
  // As openStorage opens it: searches and counts on a pool of their own, planned for their values.
  const pool = await openPostgres(pgUrl, { max: 4, customPlans: true });
  const storage = await createPostgresStorage(sql, { instance: "bench", leaseMs: 30_000, log: silentLog, reads: pool });
  if (!args["no-queries"]) await reads(storage, { url: pgUrl });
  await storage.close();
} else {
  console.log(`data file ${fmt(size(path) / 2 ** 20, 0)} MiB`);
  const db = openDatabase({ path, durability: "normal" });
  const storage = createSqliteStorage(db, { path, durability: "normal", searchThreadUrl: THREAD });
  const search = createThreadedSearch({ store: storage.search, thread: storage.searchThread!, changes: storage.changes, log: silentLog });
  (t0 = performance.now()), cpuMs();
  await search.sweep();
  await search.close();
  const s = (performance.now() - t0) / 1000;
  if (s > 5) console.log(`indexed by the index thread's sweep in ${fmt(s, 1)} s`);
  console.log(`index on disk: ${fmt((size(`${path}-search`) + size(`${path}-search-wal`)) / 2 ** 20, 0)} MiB`);
  if (!args["no-queries"]) await reads(storage, { path });
  await storage.close();
}

/** The URL of database `name` on the cluster `url` names, created when it is not there. */
async function databaseOf(url: string | undefined, name: string): Promise<string> {
  if (!url) throw new Error("--postgres: set MAILROOM_TEST_PG_URL (bun scripts/postgres.ts prints it)");
  const admin = new SQL(url, { max: 1 });
  if ((await admin.unsafe(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).length === 0) await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The query and the views' counts through the app on `storage`. */
async function reads(storage: Storage, where: { path: string } | { url: string }): Promise<void> {
  const config = buildConfig({ api_keys: [{ label: "bench", token: TOKEN }], storage: where }, {});
  const metrics = createMetrics(config);
  const runner = createRunner({ config, queue: storage.attempts, clock: systemClock, log: silentLog, metrics });
  const built = createApp({ config, storage, clock: systemClock, log: silentLog, runner, metrics });
  await built.ready;
  await built.search.flush();
  // The start-up sweep (every hook looked up for an index entry) would run beside the reads: wait for it.
  const swept = performance.now();
  await built.search.sweep();
  console.log(`start-up sweep waited for: ${fmt((performance.now() - swept) / 1000, 1)} s`);
  const call = async (url: string, init?: RequestInit) => {
    const res = await built.app.handle(
      new Request(`http://localhost${url}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" } }),
    );
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  const times = Number(args.queries);
  for (const [label, q] of PAGE_QUERIES) {
    const ms: number[] = [];
    let found = 0;
    for (let i = 0; i < times; i++) {
      const t = performance.now();
      found = (await call(`/v1/hooks?limit=50&q=${encodeURIComponent(pageQuery(q, end, i))}`)).length;
      ms.push(performance.now() - t);
    }
    console.log(`GET /v1/hooks?q= ${label.padEnd(38)} p50 ${fmt(median(ms))} ms  p99 ${fmt(percentile(ms, 99))} ms  (${found} on the page)`);
  }
  // Each view alone: the sidebar's count of one view (GET /v1/views?include=count counts them all).
  const views = (args.views ? args.views.split("|") : [...SIX_VIEWS, ...MORE_VIEWS]).map((query, i) => [`view-${i}`, query] as const);
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
}

/**
 * Puts the hooks an earlier --bulk run retried back to failed (their `retried` events dropped, the
 * counters counted again) and drops the hooks its senders caught (channel `live`, bench/lib.ts's
 * `catching`), so that every run retries the same hooks among the same 1,000,000.
 */
async function undoRetries(): Promise<number> {
  const statuses = STATUSES.map((st) => `count(*) FILTER (WHERE status = '${st}')`).join(", ");
  const undo = `UPDATE hooks SET status = 'failed', finalized_at = NULL WHERE status = 'pending' AND id IN (SELECT hook_id FROM events WHERE kind = 'retried')`;
  const dropCaught = [`DELETE FROM hooks WHERE channel = 'live'`, `DELETE FROM channels WHERE name = 'live'`];
  if (pgUrl) {
    const sql = await openPostgres(pgUrl, { max: 1 });
    const n = await sql.begin(async (tx) => {
      const moved = (await tx.unsafe(undo)).count as number;
      await tx.unsafe(`DELETE FROM events WHERE kind = 'retried'`);
      await tx.unsafe(`DELETE FROM attempts`);
      for (const drop of dropCaught) await tx.unsafe(drop);
      await tx.unsafe(`DELETE FROM channel_counts`);
      await tx.unsafe(
        `INSERT INTO channel_counts (channel, slot, pending, handled, failed, discarded) SELECT channel, 0, ${statuses} FROM hooks GROUP BY channel`,
      );
      return moved;
    });
    // The job's and the put-back's row versions are dead now: vacuumed, so that they do not slow the next snapshot.
    if (n > 0) await sql.unsafe("VACUUM ANALYZE hooks, events");
    await sql.close();
    return n;
  }
  const db = openDatabase({ path, durability: "normal" });
  const sql = db.$client;
  const n = sql.transaction(() => {
    const moved = sql.run(undo).changes;
    sql.run(`DELETE FROM events WHERE kind = 'retried'`);
    sql.run(`DELETE FROM attempts`);
    for (const drop of dropCaught) sql.run(drop);
    for (const row of sql.query(`SELECT channel, ${statuses} FROM hooks GROUP BY channel`).values())
      sql.run(`UPDATE channels SET pending = ?, handled = ?, failed = ?, discarded = ? WHERE name = ?`, [...row.slice(1), row[0]] as never);
    return moved;
  })();
  sql.run("PRAGMA wal_checkpoint(TRUNCATE)");
  sql.close();
  // The dropped hooks' search entries are removed here, as the server's background purge would in
  // time: otherwise the server's start-up purge of them would run beside the measure.
  const purged = openDatabase({ path, durability: "normal" });
  const storage = createSqliteStorage(purged, { path, durability: "normal" });
  for (let after: number | undefined; ; ) if ((after = await storage.search.purge!(after, 5000)) === undefined) break;
  await storage.close();
  return n;
}

/** CPU seconds (user and system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * One round: the failed hooks put back, the server started, catching alone (after a warm-up),
 * the bulk retry with catching beside it, catching alone again. Besides the rates, the server's CPU
 * time (from /proc) in each window: catching's CPU per hook alone, and what the job added.
 */
async function bulkRound(round: number, bin = BIN): Promise<{ rate: number; share: number; jobCpuUs: number }> {
  const undone = await undoRetries();
  if (undone > 0) console.log(`round ${round}: ${undone} hooks an earlier run retried put back to failed`);
  const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  const loadBefore = load();
  const server = await start([bin], { cwd: dir });
  try {
    const failed = await post(server.url, "/v1/hooks/bulk", { query: "status:failed", action: "retry", dry_run: true });
    const senders = Number(args.senders);
    let caught = 0;
    const offered = args.rate === undefined ? undefined : Number(args.rate);
    const window = async (until: () => boolean) => {
      const cpu = cpuSeconds(server.pid);
      const t = performance.now();
      const open = offered === undefined ? undefined : await steady(server.url, offered, until);
      const rate = open?.rate ?? (await catching(server.url, senders, until));
      const seconds = (performance.now() - t) / 1000;
      caught = rate * seconds;
      const latency = open
        ? `${open.caught} of ${open.offered} offered caught, ${open.failed} failed${open.notSent ? ` (${open.notSent} not sent)` : ""}; p50 ${fmt(open.p50, 1)} / p99 ${fmt(open.p99, 1)} ms`
        : "";
      return { rate, cpu: cpuSeconds(server.pid) - cpu, seconds, latency };
    };
    const alone = () => {
      const stop = performance.now() + Number(args.alone) * 1000;
      return window(() => performance.now() > stop);
    };
    // Warmed up first: a server just started on a large file answers slowly for a few seconds.
    await alone();
    const before = await alone();
    const beforeCaught = caught;
    let running = true;
    const during = window(() => !running);
    const t = performance.now();
    const job = await post(server.url, "/v1/hooks/bulk", { query: "status:failed", action: "retry" });
    const snapshotMs = performance.now() - t;
    let now = job;
    // Bounded: a job that stops advancing for a minute ends the run rather than hanging it.
    let last = { done: -1, at: performance.now() };
    while (now.state === "running") {
      await Bun.sleep(100);
      now = await (await fetch(`${server.url}/v1/hooks/bulk/${job.id}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
      if (now.done !== last.done) last = { done: now.done, at: performance.now() };
      else if (performance.now() - last.at > 60_000) throw new Error(`the bulk job stopped advancing at ${now.done} of ${now.total}: ${JSON.stringify(now)}`);
    }
    const seconds = (performance.now() - t) / 1000;
    running = false;
    const withJob = await during;
    const duringCaught = caught;
    const after = await alone();
    const afterCaught = caught;
    const base = (before.rate + after.rate) / 2;
    // Catching's server CPU per hook alone; the job's: the CPU of its window less what its catching took at that cost.
    const perCaught = (before.cpu + after.cpu) / (beforeCaught + afterCaught);
    const jobCpuUs = ((withJob.cpu - duringCaught * perCaught) / now.done) * 1e6;
    const share = withJob.rate / base;
    console.log(
      `round ${round}${bin === BIN ? "" : ` (${bin})`} (load average ${loadBefore} before, ${load()} after): bulk retry of status:failed (${failed.count} of ${N}): ${now.state}, ${now.done} retried, ${now.skipped} skipped in ${fmt(seconds, 1)} s (snapshot ${fmt(snapshotMs, 0)} ms): ${fmt(now.done / seconds, 0)} hooks/s`,
    );
    if (offered === undefined)
      console.log(
        `  catching (${senders} closed-loop senders): ${fmt(before.rate, 0)} hooks/s alone before, ${fmt(after.rate, 0)} after, ${fmt(withJob.rate, 0)} during the job: ${fmt(100 * share, 0)}% of the mean alone`,
      );
    else
      console.log(
        `  catching (${offered} hooks/s offered, open loop): ${fmt(before.rate, 0)} hooks/s alone before (${before.latency}), ${fmt(after.rate, 0)} after (${after.latency}), ${fmt(withJob.rate, 0)} during the job (${withJob.latency}): ${fmt(100 * share, 0)}% of the mean alone`,
      );
    // At a steady rate catching's CPU a hook alone is not what it costs beside the job (the thread is idle part of the time): no figure for the job.
    if (offered === undefined)
      console.log(`  server CPU: ${fmt(perCaught * 1e6, 0)} µs per caught hook alone; the job ${fmt(jobCpuUs, 0)} µs per retried hook`);
    return { rate: now.done / seconds, share, jobCpuUs };
  } finally {
    await server.stop();
  }
}

if (args.bulk) {
  if (!args["no-build"]) buildBinary();
  // With --compare PATH, rounds alternate between dist/mailroom and that executable, each summed apart.
  const bins = args.compare ? [BIN, args.compare] : [BIN];
  const rounds = new Map<string, Awaited<ReturnType<typeof bulkRound>>[]>(bins.map((b) => [b, []]));
  for (let r = 1; r <= Number(args.rounds); r++) for (const bin of bins) rounds.get(bin)!.push(await bulkRound(r, bin));
  for (const [bin, list] of rounds) {
    const mid = (f: (r: (typeof list)[number]) => number) => median(list.map(f));
    console.log(
      `${bin}: median of ${list.length} rounds: bulk retry ${fmt(
        mid((r) => r.rate),
        0,
      )} hooks/s, catching during it ${fmt(100 * mid((r) => r.share), 0)}% of alone, the job's server CPU ${fmt(
        mid((r) => r.jobCpuUs),
        0,
      )} µs per hook`,
    );
  }
}

if (!args.keep) rmSync(dir, { recursive: true, force: true });
