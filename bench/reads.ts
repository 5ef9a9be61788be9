/**
 * Reads benchmark: fills a data file with 1,000,000 hooks across channels and statuses, starts
 * dist/mailroom on it, and times list (channel + status, 50 a page, at several `after` depths),
 * get and stats calls over HTTP one at a time. Prints medians and p99, then the query plan of
 * every SELECT the hook store ran, to show each is served by an index. Last, it deletes one whole
 * channel while hooks are caught for another, and prints how long catching waited meanwhile.
 *
 * With --compare PATH or --compare-commit REF (built in a temporary worktree, as bench/ingest.ts
 * does), other executables serve a copy of the same data file beside dist/mailroom: each call is
 * timed on every executable in --rounds alternating rounds (the order rotated each round, so the
 * machine's slow drifts touch all alike), and each one's medians are printed against dist/mailroom's.
 * With --pin, the servers run on the first core and this script on the others (taskset).
 *
 *   bun run bench/reads.ts [--hooks 1000000] [--samples 300] [--rounds 3] [--pin] [--compare PATH]... [--compare-commit REF]... [--no-build]
 */
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../src/db/sqlite/open";
import { createHookStore } from "../src/db/sqlite/hook-store";
import { fillHooks } from "./fill";
import { AUTH, BIN, buildBinary, buildCommit, fmt, mailroomDir, median, pad, peakRssMiB, percentile, start, type Started } from "./lib";

const { values: args } = parseArgs({
  options: {
    hooks: { type: "string", default: "1000000" },
    channels: { type: "string", default: "8" },
    samples: { type: "string", default: "300" },
    rounds: { type: "string", default: "3" },
    pin: { type: "boolean", default: false },
    compare: { type: "string", multiple: true, default: [] },
    "compare-commit": { type: "string", multiple: true, default: [] },
    "no-build": { type: "boolean", default: false },
  },
});
const samples = Number(args.samples);
const rounds = Math.max(1, Number(args.rounds));
const cores = navigator.hardwareConcurrency;
if (args.pin && cores < 2) throw new Error("--pin needs two cores or more");
/** With --pin: the servers' core; this script moves to the others. */
const serverCpus = args.pin ? ["taskset", "-c", "0"] : [];
if (args.pin && Bun.spawnSync(["taskset", "-a", "-p", "-c", `1-${cores - 1}`, String(process.pid)], { stdout: "ignore" }).exitCode !== 0) {
  throw new Error("--pin: taskset could not move this script off the first core");
}
/** The executables compared with dist/mailroom: [label, path], from --compare and --compare-commit. */
const compared: [string, string][] = args.compare.map((path, i) => [args.compare.length > 1 ? `compare${i + 1}` : "compare", path]);
/** The servers timed, dist/mailroom first. */
const targets: { label: string; server: Started }[] = [];

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

/**
 * Times one call on every target: a warm-up each, then --rounds rounds, each target's share of the
 * samples taken in turn (the order rotated every round). Prints each target's median and p99, and
 * each compared target's median against dist/mailroom's.
 */
async function measure(label: string, path: () => string): Promise<void> {
  for (const t of targets) for (let i = 0; i < 20; i++) await time(t.server.url + path());
  const ms = targets.map(() => [] as number[]);
  const per = Math.ceil(samples / rounds);
  for (let round = 0; round < rounds; round++) {
    for (let j = 0; j < targets.length; j++) {
      const i = (j + round) % targets.length;
      for (let n = 0; n < per; n++) ms[i]!.push(await time(targets[i]!.server.url + path()));
    }
  }
  const cols = ms.map((m) => `${pad(fmt(median(m)), 7)} ${pad(fmt(percentile(m, 99)), 7)}`).join("  ");
  const ratios = ms
    .slice(1)
    .map((m) => `  ${pad(fmt(median(m) / median(ms[0]!), 2), 5)}x`)
    .join("");
  console.log(`  ${label.padEnd(50)} ${cols}${ratios}`);
}

async function main() {
  if (!args["no-build"]) {
    console.log("building dist/mailroom ...");
    buildBinary();
  }
  for (const ref of args["compare-commit"]) {
    console.log(`building ${ref} in a temporary worktree ...`);
    const built = buildCommit(ref);
    process.on("exit", () => built.dispose());
    compared.push([built.commit, built.bin]);
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

  // Each compared executable gets its own copy of the data file (the delete at the end changes it).
  const dirs: [string, string, string][] = [["mailroom", BIN, dir]];
  for (const [label, bin] of compared) {
    const copy = mailroomDir({ durability: "full" });
    process.on("exit", () => rmSync(copy, { recursive: true, force: true }));
    mkdirSync(join(copy, "data"));
    for (const suffix of ["", "-wal", "-shm"]) {
      if (existsSync(path + suffix)) copyFileSync(path + suffix, join(copy, "data/mailroom.db" + suffix));
    }
    dirs.push([label, bin, copy]);
  }
  for (const [label, bin, cwd] of dirs) {
    t0 = performance.now();
    targets.push({ label, server: await start([...serverCpus, bin], { cwd }) });
    console.log(`${label === "mailroom" ? "dist/mailroom" : label} started on it in ${fmt(performance.now() - t0, 0)} ms (durability full)`);
  }
  console.log("");
  const u = targets[0]!.server.url;
  let k = 0;
  const pick = () => allIds[(k = (k * 7919 + 13) % allIds.length)]!;
  try {
    const heads = targets.map((t) => `${pad(t.label.slice(0, 7), 7)} ${pad("p99", 7)}`).join("  ");
    const against = compared.map(([label]) => `  ${pad(label.slice(0, 7), 7)}`).join("");
    console.log(`  ${"call (one at a time, HTTP on loopback)".padEnd(50)} ${heads}${against}`);
    if (targets.length > 1) console.log(`  ${"".padEnd(50)} (median and p99 in ms per executable; then each one's median / mailroom's)`);
    await measure(`list channel+status=pending, first page`, () => `/v1/hooks?channel=${channel}&status=pending&limit=50`);
    for (const { d, id } of depths) {
      await measure(
        `list channel+status=pending, after ${d.toLocaleString("en")} hooks`,
        () => `/v1/hooks?channel=${channel}&status=pending&limit=50&after=${id}`,
      );
    }
    await measure(`list channel, after ~1/2`, () => `/v1/hooks?channel=${channel}&limit=50&after=${depths[1]!.id}`);
    await measure(`list status=failed (all channels), after ~1/2`, () => `/v1/hooks?status=failed&limit=50&after=${depths[1]!.id}`);
    await measure(`list all hooks, near the oldest`, () => `/v1/hooks?limit=50&after=${deepAny}`);
    await measure(`get one hook (random ids)`, () => `/v1/hooks/${pick()}`);
    await measure(`stats: get one channel`, () => `/v1/channels/${channel}`);
    await measure(`stats: list all ${filled.channels.length} channels`, () => `/v1/channels`);
    console.log("");
    for (const t of targets) console.log(`  peak RSS of ${t.label}: ${fmt(peakRssMiB(t.server.pid), 1)} MB`);
    const stats = (await (await fetch(`${u}/v1/channels/${channel}`, { headers: AUTH })).json()) as { stats: Record<string, string> };
    const same = Object.entries(stats.stats).every(([s, c]) => c === String(counted[s] ?? 0));
    console.log(`  stats of ${channel} ${same ? "match" : "DO NOT match"} the hooks counted in the table: ${JSON.stringify(stats.stats)}`);
    for (const t of targets) {
      if (targets.length > 1) console.log(`  ${t.label}:`);
      await deleteWhileCatching(t.server.url, filled.channels.at(-1)!);
    }
  } finally {
    for (const t of targets) await t.server.stop();
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
