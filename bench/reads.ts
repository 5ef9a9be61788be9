/**
 * Reads benchmark: fills a data file with 1,000,000 hooks across channels and statuses, starts
 * dist/mailroom on it, and times list (channel + status, 50 a page, at several `after` depths),
 * get and stats calls over HTTP one at a time. Prints medians and p99, then the query plan of
 * every SELECT the hook store ran, to show each is served by an index. Last, it deletes one whole
 * channel while hooks are caught for another, and prints how long catching waited meanwhile.
 *
 *   bun run bench/reads.ts [--hooks 1000000] [--samples 300] [--no-build]
 */
import { Database } from "bun:sqlite";
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../src/db/sqlite/open";
import { createHookStore } from "../src/db/sqlite/hook-store";
import { fillHooks } from "./fill";
import { AUTH, BIN, buildBinary, fmt, mailroomDir, median, pad, peakRssMiB, percentile, start } from "./lib";

const { values: args } = parseArgs({
  options: {
    hooks: { type: "string", default: "1000000" },
    channels: { type: "string", default: "8" },
    samples: { type: "string", default: "300" },
    "no-build": { type: "boolean", default: false },
  },
});
const samples = Number(args.samples);

async function time(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: AUTH });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return ms;
}

/** Deletes a whole channel while one sender posts hooks to another, one at a time: how long catching waits. */
async function deleteWhileCatching(u: string, victim: string): Promise<void> {
  const before = (await (await fetch(`${u}/v1/channels/${victim}`, { headers: AUTH })).json()) as { stats: Record<string, string> };
  const held = Object.values(before.stats).reduce((n, c) => n + Number(c), 0);
  let deleting = true;
  const latencies: number[] = [];
  const sender = (async () => {
    while (deleting) {
      const t0 = performance.now();
      const res = await fetch(`${u}/?channel=live`, { method: "POST", body: '{"during":"delete"}' });
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
    }
  })();
  const t0 = performance.now();
  const res = await fetch(`${u}/v1/channels/${victim}`, { method: "DELETE", headers: AUTH });
  const took = performance.now() - t0;
  deleting = false;
  await sender;
  if (res.status !== 200) throw new Error(`DELETE /v1/channels/${victim}: ${res.status}`);
  console.log(
    `  deleted channel ${victim} (${held.toLocaleString("en")} hooks) in ${fmt(took / 1000, 2)} s; meanwhile ${latencies.length} hooks were caught ` +
      `one at a time: median ${fmt(median(latencies))} ms, p99 ${fmt(percentile(latencies, 99))} ms, max ${fmt(Math.max(...latencies))} ms`,
  );
}

async function measure(label: string, urls: () => string): Promise<void> {
  for (let i = 0; i < 20; i++) await time(urls());
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) ms.push(await time(urls()));
  console.log(`  ${label.padEnd(50)} ${pad(fmt(median(ms)), 7)} ${pad(fmt(percentile(ms, 99)), 7)}`);
}

async function main() {
  if (!args["no-build"]) {
    console.log("building dist/mailroom ...");
    buildBinary();
  }
  const dir = mailroomDir({ durability: "full" });
  process.on("exit", () => rmSync(dir, { recursive: true, force: true })); // the data file is 1.5 GB
  const path = join(dir, "data/mailroom.db");
  const n = Number(args.hooks);
  let t0 = performance.now();
  const filled = fillHooks(path, { hooks: n, channels: Number(args.channels), days: 30 });
  console.log(
    `filled ${n} hooks in ${filled.channels.length} channels in ${fmt((performance.now() - t0) / 1000, 1)} s; data file ${fmt(statSync(path).size / 2 ** 20, 0)} MB`,
  );

  // Ids at several depths of one channel's pending hooks (newest first), and random ids to get.
  const ro = new Database(path, { readonly: true });
  const channel = filled.channels[0]!;
  const pending = filled.counts.get(channel)!.pending!;
  const idAt = (offset: number) =>
    (ro.query(`SELECT id FROM hooks WHERE channel = ? AND status = 'pending' ORDER BY id DESC LIMIT 1 OFFSET ?`).get(channel, offset) as { id: string }).id;
  const depths = [Math.min(1_000, Math.floor(pending / 4)), Math.floor(pending / 2), Math.max(0, pending - 60)].map((d) => ({ d, id: idAt(d) }));
  const allIds = (ro.query(`SELECT id FROM hooks WHERE rowid % 997 = 0`).all() as { id: string }[]).map((r) => r.id);
  const deepAny = (ro.query(`SELECT id FROM hooks ORDER BY id LIMIT 1 OFFSET 1000`).get() as { id: string }).id;
  // Counted from the rows themselves (fill.ts sets the counters from its own tally).
  const counted = Object.fromEntries(
    (ro.query(`SELECT status, count(*) AS n FROM hooks WHERE channel = ? GROUP BY status`).all(channel) as { status: string; n: number }[]).map((r) => [
      r.status,
      r.n,
    ]),
  ) as Record<string, number>;
  ro.close();

  t0 = performance.now();
  const server = await start([BIN], { cwd: dir });
  console.log(`dist/mailroom started on it in ${fmt(performance.now() - t0, 0)} ms (durability full)\n`);
  const u = server.url;
  let k = 0;
  const pick = () => allIds[(k = (k * 7919 + 13) % allIds.length)]!;
  try {
    console.log(`  ${"call (one at a time, HTTP on loopback)".padEnd(50)} ${pad("median", 7)} ${pad("p99", 7)}  ms`);
    await measure(`list channel+status=pending, first page`, () => `${u}/v1/hooks?channel=${channel}&status=pending&limit=50`);
    for (const { d, id } of depths) {
      await measure(
        `list channel+status=pending, after ${d.toLocaleString("en")} hooks`,
        () => `${u}/v1/hooks?channel=${channel}&status=pending&limit=50&after=${id}`,
      );
    }
    await measure(`list channel, after ~1/2`, () => `${u}/v1/hooks?channel=${channel}&limit=50&after=${depths[1]!.id}`);
    await measure(`list status=failed (all channels), after ~1/2`, () => `${u}/v1/hooks?status=failed&limit=50&after=${depths[1]!.id}`);
    await measure(`list all hooks, near the oldest`, () => `${u}/v1/hooks?limit=50&after=${deepAny}`);
    await measure(`get one hook (random ids)`, () => `${u}/v1/hooks/${pick()}`);
    await measure(`stats: get one channel`, () => `${u}/v1/channels/${channel}`);
    await measure(`stats: list all ${filled.channels.length} channels`, () => `${u}/v1/channels`);
    console.log(`\n  peak RSS of dist/mailroom: ${fmt(peakRssMiB(server.pid), 1)} MB`);
    const stats = (await (await fetch(`${u}/v1/channels/${channel}`, { headers: AUTH })).json()) as { stats: Record<string, string> };
    const same = Object.entries(stats.stats).every(([s, c]) => c === String(counted[s] ?? 0));
    console.log(`  stats of ${channel} ${same ? "match" : "DO NOT match"} the hooks counted in the table: ${JSON.stringify(stats.stats)}`);
    await deleteWhileCatching(u, filled.channels.at(-1)!);
  } finally {
    await server.stop();
  }
  await explainStoreQueries(path, channel, depths[1]!.id);
}

/** Runs the store's read methods once while recording their SQL, then prints each plan. */
async function explainStoreQueries(path: string, channel: string, after: string): Promise<void> {
  const db = openDatabase({ path, durability: "normal" });
  const sql = db.$client;
  const seen = new Set<string>();
  const prepare = sql.prepare.bind(sql);
  sql.prepare = ((text: string) => (seen.add(text), prepare(text))) as typeof sql.prepare;
  const store = createHookStore(db);
  const some = await store.listHooks({ channel, status: "pending", after, limit: 50 });
  await store.listHooks({ channel, after, limit: 50 });
  await store.listHooks({ status: "failed", after, limit: 50 });
  await store.listHooks({ after, limit: 50 });
  await store.getHook(some[0]!.id);
  await store.eventsOf(some.map((h) => h.id));
  await store.getChannel(channel);
  await store.listChannels();
  console.log("\nquery plans of the hook store's reads:");
  for (const text of seen) {
    if (!/^\s*SELECT/i.test(text)) continue;
    const args = [...text.matchAll(/\?/g)].map(() => "x");
    const plan = sql.query(`EXPLAIN QUERY PLAN ${text}`).all(...args) as { detail: string }[];
    console.log(`  ${text.replace(/\s+/g, " ").replace(/\?(,\s*\?)+/, "?, ...")}`);
    for (const p of plan) console.log(`    -> ${p.detail}`);
  }
  sql.close();
}

await main();
