/**
 * The sidebar's count of a saved view at the search store (docs/benchmarks.md, issue 32), on the
 * SQLite data directory bench/million.ts keeps (`--keep DIR`): for each view, the count as the
 * views service made it before (the search's pages of 1,000 ids, up to 10,000) and the store's
 * counting path (`count(query, 10000)`), in alternating rounds in one process, so that the
 * machine's load falls on both alike. Prints the median wall time and CPU time of each, with the
 * load average. Then (`--queries N`, 0 for none) the four query shapes of bench/million.ts at the store,
 * `search()` for a page of 50, a 2-day range moving back an hour each time: p50 and p99 of wall and
 * CPU time.
 *
 * The views: bench/views.ts's (`is:unread` asked as the bench's key).
 * `--views 'Q1|Q2'` counts those views instead. `--no-pages` leaves out the search's pages (the
 * count as made before), which take seconds for a view without a needle ANDed at the top.
 *
 *   bun run bench/view-counts.ts --dir DIR [--rounds 9] [--queries 15] [--views 'Q1|Q2'] [--no-pages]
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../src/db/sqlite/open";
import { createSqliteStorage } from "../src/db/sqlite/storage";
import { parseSearch, withReader } from "../src/search/query";
import type { SearchStore } from "../src/search/store";
import { fmt, median, percentile } from "./lib";
import { MORE_VIEWS, PAGE_QUERIES, pageQuery, SIX_VIEWS } from "./views";

const { values: args } = parseArgs({
  options: {
    dir: { type: "string" },
    rounds: { type: "string", default: "9" },
    queries: { type: "string", default: "15" },
    views: { type: "string" },
    "no-pages": { type: "boolean", default: false },
  },
});
if (!args.dir) throw new Error("--dir DIR: the directory bench/million.ts --keep DIR filled");
const MAX = 10_000;
const PAGE = 1000;
const path = join(args.dir, "data/mailroom.db");
const db = openDatabase({ path, durability: "normal" });
const storage = createSqliteStorage(db, { path, durability: "normal" });
const store: SearchStore = storage.search;

const VIEWS = args.views ? args.views.split("|") : [...SIX_VIEWS, ...MORE_VIEWS];
/** `is:unread` as the bench's key asks it (the sidebar counts a view for who asks). */
const termsOf = (q: string) => {
  const terms = parseSearch(q);
  return { ...terms, node: terms.node && withReader(terms.node, "api:bench") };
};
const pages = !args["no-pages"];

/** The count as the views service made it before: pages of the search until one is short or MAX is reached. */
async function paged(q: string): Promise<number> {
  const terms = termsOf(q);
  let n = 0;
  for (let after: string | undefined; ; ) {
    const page = await store.search({ terms, after, limit: PAGE });
    n += page.length;
    if (page.length < PAGE || n >= MAX) return n;
    after = page[page.length - 1];
  }
}
const counted = (q: string) => store.count({ terms: termsOf(q) }, MAX);

async function timed(fn: () => Promise<number>): Promise<{ ms: number; cpu: number; n: number }> {
  const c = process.cpuUsage();
  const t = performance.now();
  const n = await fn();
  const used = process.cpuUsage(c);
  return { ms: performance.now() - t, cpu: (used.user + used.system) / 1000, n };
}

const load = () =>
  loadavg()
    .map((l) => fmt(l, 2))
    .join(" ");
console.log(`load average at the start: ${load()}`);
const rounds = Number(args.rounds);
const results = new Map(VIEWS.map((q) => [q, { old: [] as { ms: number; cpu: number; n: number }[], now: [] as { ms: number; cpu: number; n: number }[] }]));
// A first round of each warms the page cache for both.
for (const q of VIEWS) await (pages ? paged(q) : 0), await counted(q);
for (let r = 0; r < rounds; r++) {
  for (const q of VIEWS) {
    const slot = results.get(q)!;
    if (!pages) slot.now.push(await timed(() => counted(q)));
    else if (r % 2 === 0) slot.old.push(await timed(() => paged(q))), slot.now.push(await timed(() => counted(q)));
    else slot.now.push(await timed(() => counted(q))), slot.old.push(await timed(() => paged(q)));
  }
}
console.log(`| view | pages of 1,000: wall / CPU ms | count(): wall / CPU ms | count |`);
console.log(`|---|---|---|---|`);
for (const [q, { old, now }] of results) {
  const n = now[0]!.n;
  const shown = n > MAX ? `${MAX}+` : String(n);
  const m = (xs: { ms: number; cpu: number }[], k: "ms" | "cpu") => (xs.length === 0 ? "-" : fmt(median(xs.map((x) => x[k])), 1));
  console.log(`| \`${q}\` | ${m(old, "ms")} / ${m(old, "cpu")} | ${m(now, "ms")} / ${m(now, "cpu")} | ${shown}${old[0] ? ` (pages: ${old[0].n})` : ""} |`);
}
console.log(`load average at the end: ${load()}`);

const times = Number(args.queries);
if (times > 0) {
  // As bench/million.ts asks them: a 2-day range that moves back an hour each time, inside the 7 days.
  const { end } = JSON.parse(readFileSync(join(args.dir, "million.json"), "utf8")) as { end: number };
  console.log(`\nload average at the start: ${load()}`);
  console.log(`| query, page of 50 | wall p50 / p99 ms | CPU p50 / p99 ms | on the page |`);
  console.log(`|---|---|---|---|`);
  for (const [, shape] of PAGE_QUERIES) {
    await store.search({ terms: parseSearch(pageQuery(shape, end, 0)), limit: 50 });
    const runs: { ms: number; cpu: number; n: number }[] = [];
    for (let i = 0; i < times; i++) {
      const terms = parseSearch(pageQuery(shape, end, i));
      runs.push(await timed(async () => (await store.search({ terms, limit: 50 })).length));
    }
    const p = (k: "ms" | "cpu") =>
      `${fmt(median(runs.map((r) => r[k])), 1)} / ${fmt(
        percentile(
          runs.map((r) => r[k]),
          99,
        ),
        1,
      )}`;
    console.log(`| \`${shape.replace(" #", "")}\` + 2 days | ${p("ms")} | ${p("cpu")} | ${runs[0]!.n} |`);
  }
  console.log(`load average at the end: ${load()}`);
}
await storage.close();
