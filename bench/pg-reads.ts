/**
 * Issue 32's reads at the PostgreSQL search store (docs/benchmarks.md), on the database
 * bench/million.ts --postgres filled (`million` on the cluster MAILROOM_TEST_PG_URL names; `--dir`
 * is its --keep DIR, for the fill's time): the four query shapes of bench/million.ts (a page of 50,
 * a 2-day range moving back an hour each round) and the six views' counts (`count(query, 10000)`),
 * each timed by its wall time and by the CPU time of the PostgreSQL backend that ran it and of
 * its parallel workers (/proc/PID/stat of the backend, and the postmaster's reaped children: other
 * connections' ended processes count there too, so run nothing else on the cluster), which the
 * machine's load moves far less: p50 and p99 of the rounds. Each statement runs both ways a read
 * planned for its values can go, alternately (which first changes each round), each on a
 * connection of its own: `transaction` (BEGIN, SET LOCAL plan_cache_mode, the statement, COMMIT:
 * PgTransactor.read without a pool of reads, as every read went before) and `pool` (the statement
 * alone on a connection opened with the setting, as a server's reads go). With --explain, prints
 * EXPLAIN (ANALYZE, BUFFERS) of every statement once, after the rounds.
 *
 *   bun run bench/pg-reads.ts --dir DIR [--rounds 9] [--explain] [--only SUBSTRING]
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SQL } from "bun";
import { createPgSearchStore } from "../src/db/pg/search-store";
import { PLAN_CACHE_MODE, pgTransactor } from "../src/db/pg/transactor";
import { parseSearch } from "../src/search/query";
import { fmt, median, percentile } from "./lib";
import { PAGE_QUERIES, pageQuery, SIX_VIEWS } from "./views";

const { values: args } = parseArgs({
  options: {
    dir: { type: "string" },
    rounds: { type: "string", default: "9" },
    explain: { type: "boolean", default: false },
    only: { type: "string" },
  },
});
if (!args.dir) throw new Error("--dir DIR: the directory bench/million.ts --postgres --keep DIR filled");
const base = process.env.MAILROOM_TEST_PG_URL;
if (!base) throw new Error("set MAILROOM_TEST_PG_URL (bun scripts/postgres.ts prints it)");
const u = new URL(base);
u.pathname = "/million";
const { end } = JSON.parse(readFileSync(join(args.dir, "million.json"), "utf8")) as { end: number };

const TICK_MS = 1000 / 100; // USER_HZ
/** Fields of /proc/PID/stat after the command's name: [0] is the state, [1] the parent. */
const stat = (p: number) => readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ").map(Number);
// The store's last statement, for EXPLAIN.
let last: [string, unknown[]] | undefined;
const recording = (on: SQL): SQL =>
  new Proxy(on, {
    get(target, key) {
      if (key === "unsafe")
        return (text: string, params?: unknown[]) => {
          if (!text.startsWith("SET ")) last = [text, params ?? []];
          return target.unsafe(text, params);
        };
      if (key === "begin") return (fn: (tx: SQL) => Promise<unknown>) => target.begin((tx) => fn(recording(tx)));
      return Reflect.get(target, key);
    },
  }) as SQL;
/** A search store on one connection, so that every statement runs on the backend whose CPU time is read. */
async function way(reads: boolean) {
  const sql = new SQL(u.toString(), { max: 1, ...(reads ? { connection: { plan_cache_mode: PLAN_CACHE_MODE } } : {}) });
  const [{ pid }] = (await sql.unsafe(`SELECT pg_backend_pid() AS pid`)) as [{ pid: number }];
  const postmaster = stat(pid)[1]!;
  // The backend's CPU time, and the postmaster's reaped children's (the parallel workers a plan started).
  const cpuMs = () => {
    const b = stat(pid);
    const p = stat(postmaster);
    return (b[11]! + b[12]! + p[13]! + p[14]!) * TICK_MS;
  };
  const t = reads ? pgTransactor(sql, recording(sql)) : pgTransactor(recording(sql));
  return { sql, cpuMs, store: createPgSearchStore(t) };
}
const ways = { transaction: await way(false), pool: await way(true) };
type Way = keyof typeof ways;

// `after:-7d` counts from the fill's end, as it did just after the fill.
const MAX = 10_000;

type Store = ReturnType<typeof createPgSearchStore>;
type Case = { label: string; run: (store: Store, round: number) => Promise<number> };
const cases: Case[] = [
  ...PAGE_QUERIES.map(([, q]) => ({
    label: `search ${q.replace(" #", " + 2 days")}`,
    run: async (store: Store, i: number) => (await store.search({ terms: parseSearch(pageQuery(q, end, i)), limit: 50, now: end })).length,
  })),
  ...SIX_VIEWS.map((q) => ({ label: `count ${q}`, run: (store: Store) => store.count({ terms: parseSearch(q), now: end }, MAX) })),
].filter((c) => !args.only || c.label.includes(args.only));

const load = () =>
  loadavg()
    .map((l) => fmt(l, 2))
    .join(" ");
console.log(`load average at the start: ${load()}`);
const rounds = Number(args.rounds);
const results = new Map(
  cases.map((c) => [c.label, { transaction: { ms: [] as number[], cpu: [] as number[] }, pool: { ms: [] as number[], cpu: [] as number[] }, n: 0 }]),
);
for (const c of cases) for (const w of Object.values(ways)) await c.run(w.store, 0); // warms the cache
for (let r = 0; r < rounds; r++) {
  for (const c of cases) {
    const slot = results.get(c.label)!;
    for (const name of (r % 2 ? ["pool", "transaction"] : ["transaction", "pool"]) as Way[]) {
      const w = ways[name];
      const cpu = w.cpuMs();
      const t0 = performance.now();
      const n = await c.run(w.store, r);
      slot[name].ms.push(performance.now() - t0);
      slot[name].cpu.push(w.cpuMs() - cpu);
      if (name === "pool") slot.n = n;
      else if (n !== slot.n && slot.n !== 0) throw new Error(`${c.label}: ${n} one way, ${slot.n} the other`);
    }
  }
}
const p = (xs: number[]) => `${fmt(percentile(xs, 50), 2)} / ${fmt(percentile(xs, 99), 2)}`;
console.log(`| statement | transaction: wall p50 / p99 ms | pool: wall p50 / p99 ms | backend CPU p50 ms (transaction, pool) | found |`);
console.log(`|---|---|---|---|---|`);
for (const [label, { transaction, pool, n }] of results)
  console.log(
    `| ${label} | ${p(transaction.ms)} | ${p(pool.ms)} | ${fmt(median(transaction.cpu), 0)}, ${fmt(median(pool.cpu), 0)} | ${n > MAX ? `${MAX}+` : n} |`,
  );
console.log(`load average at the end: ${load()}`);
if (args.explain)
  for (const c of cases) {
    await c.run(ways.pool.store, 0);
    const [text, params] = last!;
    const plan = (await ways.pool.sql.unsafe(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params)) as { "QUERY PLAN": string }[];
    console.log(`\n== ${c.label}\n${text}\n${JSON.stringify(params)}\n${plan.map((p) => p["QUERY PLAN"]).join("\n")}`);
  }
for (const w of Object.values(ways)) await w.sql.close();
