/**
 * The sidebar's count of a saved view at the search store (docs/benchmarks.md, issue 32), on the
 * SQLite data directory bench/million.ts keeps (`--keep DIR`): for each view, the count as the
 * views service made it before (the search's pages of 1,000 ids, up to 10,000) and the store's
 * counting path (`count(query, 10000)`), in alternating rounds in one process, so that the
 * machine's load falls on both alike. Prints the median wall time and CPU time of each, with the
 * load average.
 *
 *   bun run bench/view-counts.ts --dir DIR [--rounds 9]
 */
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../src/db/sqlite/open";
import { createSqliteStorage } from "../src/db/sqlite/storage";
import { parseSearch } from "../src/search/query";
import type { SearchStore } from "../src/search/store";
import { fmt, median } from "./lib";

const { values: args } = parseArgs({ options: { dir: { type: "string" }, rounds: { type: "string", default: "9" } } });
if (!args.dir) throw new Error("--dir DIR: the directory bench/million.ts --keep DIR filled");
const MAX = 10_000;
const PAGE = 1000;
const path = join(args.dir, "data/mailroom.db");
const db = openDatabase({ path, durability: "normal" });
const storage = createSqliteStorage(db, { path, durability: "normal" });
const store: SearchStore = storage.search;

const VIEWS = ["tag:vip status:failed", "refund tag:vip after:-7d", "status:failed channel:shop-3", "refund tag:big", "tag:billing", "foxtrot status:failed"];

/** The count as the views service made it before: pages of the search until one is short or MAX is reached. */
async function paged(q: string): Promise<number> {
  const terms = parseSearch(q);
  let n = 0;
  for (let after: string | undefined; ; ) {
    const page = await store.search({ terms, after, limit: PAGE });
    n += page.length;
    if (page.length < PAGE || n >= MAX) return n;
    after = page[page.length - 1];
  }
}
const counted = (q: string) => store.count({ terms: parseSearch(q) }, MAX);

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
for (const q of VIEWS) await paged(q), await counted(q);
for (let r = 0; r < rounds; r++) {
  for (const q of VIEWS) {
    const slot = results.get(q)!;
    if (r % 2 === 0) slot.old.push(await timed(() => paged(q))), slot.now.push(await timed(() => counted(q)));
    else slot.now.push(await timed(() => counted(q))), slot.old.push(await timed(() => paged(q)));
  }
}
console.log(`| view | pages of 1,000: wall / CPU ms | count(): wall / CPU ms | count |`);
console.log(`|---|---|---|---|`);
for (const [q, { old, now }] of results) {
  const n = now[0]!.n;
  const shown = n > MAX ? `${MAX}+` : String(n);
  const m = (xs: { ms: number; cpu: number }[], k: "ms" | "cpu") => fmt(median(xs.map((x) => x[k])), 1);
  console.log(`| \`${q}\` | ${m(old, "ms")} / ${m(old, "cpu")} | ${m(now, "ms")} / ${m(now, "cpu")} | ${shown} (pages: ${old[0]!.n}) |`);
}
console.log(`load average at the end: ${load()}`);
await storage.close();
