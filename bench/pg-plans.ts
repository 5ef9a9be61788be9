/**
 * Which PostgreSQL reads fall to a generic plan (docs/benchmarks.md), on the database
 * bench/million.ts --postgres filled (`million` on the cluster MAILROOM_TEST_PG_URL names; `--dir`
 * is its --keep DIR, for the fill's end). Bun prepares a statement once per connection; from its
 * sixth run PostgreSQL may keep a plan made without the values. Each read of the stores whose
 * values change its selectivity (the hook list by status, channel and event type, and the pages a
 * bulk snapshot reads; a tag's hooks; tag counts by channels) runs `--runs` times with values
 * taking turns, on one connection with PostgreSQL's default (`auto`) and on one planning every
 * run for its values, alternately: the median of runs 1-5 and of the later runs of each, and the
 * generic plans PostgreSQL made (pg_prepared_statements).
 *
 *   bun run bench/pg-plans.ts --dir DIR [--runs 10]
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SQL } from "bun";
import { createPgHookStore } from "../src/db/pg/hook-store";
import { PLAN_CACHE_MODE, pgTransactor } from "../src/db/pg/transactor";
import { pgDialect } from "../src/db/stores/dialect";
import { createTagStore } from "../src/db/stores/tags";
import type { HookStatus } from "../src/hooks/store";
import { ulidFloor } from "../src/lib/ids";
import { fmt, median } from "./lib";

const { values: args } = parseArgs({ options: { dir: { type: "string" }, runs: { type: "string", default: "10" } } });
if (!args.dir) throw new Error("--dir DIR: the directory bench/million.ts --postgres --keep DIR filled");
const base = process.env.MAILROOM_TEST_PG_URL;
if (!base) throw new Error("set MAILROOM_TEST_PG_URL (bun scripts/postgres.ts prints it)");
const u = new URL(base);
u.pathname = "/million";
const { end } = JSON.parse(readFileSync(join(args.dir, "million.json"), "utf8")) as { end: number };
const RUNS = Number(args.runs);

// One connection each: every run of a statement reuses its prepared statement.
const modes = {
  auto: new SQL(u.toString(), { max: 1 }),
  custom: new SQL(u.toString(), { max: 1, connection: { plan_cache_mode: PLAN_CACHE_MODE } }),
};
const stores = Object.fromEntries(
  Object.entries(modes).map(([mode, sql]) => {
    const t = pgTransactor(sql);
    return [mode, { hooks: createPgHookStore(t), tags: createTagStore(pgDialect(t)) }];
  }),
) as Record<keyof typeof modes, { hooks: ReturnType<typeof createPgHookStore>; tags: ReturnType<typeof createTagStore> }>;

const STATUSES: HookStatus[] = ["pending", "discarded", "handled", "failed"];
const CHANNELS = Array.from({ length: 20 }, (_, i) => `shop-${i}`);
const HOUR = 3_600_000;
/** An id bound `i` hours (times 7, to spread them) before the fill's end. */
const before = (i: number) => ulidFloor(end - ((i * 7) % 160) * HOUR);

type Store = (typeof stores)["auto"];
const CASES: [name: string, run: (s: Store, i: number) => Promise<unknown>][] = [
  ["list: status, no channel, 50", (s, i) => s.hooks.listHookIds({ status: STATUSES[i % 4], after: before(i), limit: 50 })],
  ["list: channel, 50", (s, i) => s.hooks.listHookIds({ channel: CHANNELS[i % 20], after: before(i), limit: 50 })],
  ["list: channel and status, 50", (s, i) => s.hooks.listHookIds({ channel: CHANNELS[i % 20], status: STATUSES[i % 4], after: before(i), limit: 50 })],
  [
    "list: event type, 50",
    (s, i) => s.hooks.listHookIds({ eventType: ["refund.created", "order.*", "nothing.sent", "refund.*"][i % 4], after: before(i), limit: 50 }),
  ],
  ["list: event type and status, 50", (s, i) => s.hooks.listHookIds({ eventType: "refund.created", status: STATUSES[i % 4], after: before(i), limit: 50 })],
  ["bulk snapshot page: status, 1000", (s, i) => s.hooks.listHookIds({ status: STATUSES[i % 4], after: before(i), limit: 1000 })],
  [
    "bulk snapshot page: channel and status, 1000",
    (s, i) => s.hooks.listHookIds({ channel: CHANNELS[i % 20], status: STATUSES[i % 4], after: before(i), limit: 1000 }),
  ],
  ["a tag's hooks", (s, i) => s.tags.idsWith(["big", "vip", "billing", "none"][i % 4]!)],
  ["tag counts of channels", (s, i) => s.tags.counts(i % 2 ? [CHANNELS[i % 20]!] : CHANNELS.slice(0, 1 + (i % 20)))],
];

/** Generic plans made so far on the `auto` connection (a statement two cases share carries its count over). */
const genericPlans = async () =>
  ((await modes.auto.unsafe(`SELECT COALESCE(sum(generic_plans), 0)::int AS n FROM pg_prepared_statements`)) as [{ n: number }])[0].n;
let counted = 0;
console.log(
  `load average ${loadavg()
    .map((l) => fmt(l))
    .join(" ")}; ${RUNS} runs of each, values taking turns; ms`,
);
console.log("case | auto: runs 1-5, 6+ (max) | custom: runs 1-5, 6+ (max) | generic plans (auto)");
for (const [name, run] of CASES) {
  const times: Record<string, number[]> = { auto: [], custom: [] };
  for (let i = 0; i < RUNS; i++)
    for (const mode of i % 2 ? (["custom", "auto"] as const) : (["auto", "custom"] as const)) {
      const t0 = performance.now();
      await run(stores[mode], i);
      times[mode]!.push(performance.now() - t0);
    }
  const generic = (await genericPlans()) - counted;
  counted += generic;
  const later = (xs: number[]) => (xs.length > 5 ? `${fmt(median(xs.slice(5)))} (${fmt(Math.max(...xs.slice(5)))})` : "-");
  const cell = (xs: number[]) => `${fmt(median(xs.slice(0, 5)))}, ${later(xs)}`;
  console.log(`${name} | ${cell(times.auto!)} | ${cell(times.custom!)} | ${generic}`);
}
for (const sql of Object.values(modes)) await sql.close();
