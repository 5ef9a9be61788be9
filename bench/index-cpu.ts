/**
 * The search index's CPU per hook, without a server: hooks of about 1 KiB of JSON whose words vary
 * as bench/post-words.lua's do (140 of 1,000 made-up words, as many distinct trigrams as real
 * JSON), documents built (search/document.ts) and written by the SQLite store in batches, as the
 * index thread does, into an index file of its own on disk (already holding `--before` hooks, so
 * FTS5's merges are those of a grown index). Prints the CPU per hook of building the documents and
 * of writing them, and the load average: CPU time, not wall-clock, is the figure on a shared machine.
 *
 *   bun run bench/index-cpu.ts [--hooks 20000] [--before 100000] [--batch 64]
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { monotonicFactory } from "ulid";
import { attachSearchIndex } from "../src/db/sqlite/search-index-file";
import { createSearchStore } from "../src/db/sqlite/search-store";
import { decodePayload } from "../src/hooks/payload";
import { searchDoc, type SearchDoc } from "../src/search/document";

const { values: args } = parseArgs({
  options: {
    hooks: { type: "string", default: "20000" },
    before: { type: "string", default: "100000" },
    batch: { type: "string", default: "64" },
  },
});
const N = Number(args.hooks);
const BEFORE = Number(args.before);
const BATCH = Number(args.batch);

let seed = 42;
const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), (seed >>> 8) % k);
const WORDS = Array.from({ length: 1000 }, () => Array.from({ length: 6 }, () => String.fromCharCode(97 + rnd(26))).join(""));
const next = monotonicFactory();
const encoder = new TextEncoder();
let n = 0;

/** A hook as the catching endpoint stores it, with post-words.lua's body. */
function hook() {
  n++;
  const words = Array.from({ length: 140 }, () => WORDS[rnd(1000)]).join(" ");
  const body = encoder.encode(`{"event":"order.created","id":"evt_${n}","data":"${words}"}`);
  const headers = { "content-type": "application/json", "user-agent": "wrk", host: "127.0.0.1:8080", "content-length": String(body.byteLength) };
  return { id: next().toLowerCase(), channel: "load", method: "POST", query: "?channel=load", ip: "127.0.0.1", headers, body, eventType: "order.created" };
}

const docsOf = (count: number) => Promise.all(Array.from({ length: count }, hook).map(async (h) => searchDoc(h, await decodePayload(h.headers, h.body))));

const dir = mkdtempSync(join(tmpdir(), "mailroom-index-cpu-"));
try {
  const sql = new Database(":memory:");
  // The tables a search store's reads name (the writes read none of them).
  sql.run(
    "CREATE TABLE hooks (id TEXT PRIMARY KEY, channel TEXT, status TEXT, method TEXT, query TEXT, headers TEXT, body BLOB, ip TEXT, event_type TEXT, verified INTEGER)",
  );
  sql.run("CREATE TABLE attempts (hook_id TEXT)");
  sql.run("CREATE TABLE hook_marks (hook_id TEXT, kind TEXT)");
  sql.run("CREATE TABLE hook_tags (hook_id TEXT, tag TEXT)");
  sql.run("CREATE TABLE hook_reads (user_id TEXT, hook_id TEXT)");
  attachSearchIndex(sql, join(dir, "index"), true);
  const store = createSearchStore(sql, { ownWrites: true });
  for (let i = 0; i < BEFORE; i += 1000) {
    const docs = await docsOf(Math.min(1000, BEFORE - i));
    for (let j = 0; j < docs.length; j += BATCH) await store.index(docs.slice(j, j + BATCH));
  }
  const hooks = Array.from({ length: N }, hook);
  const load = loadavg()[0]!.toFixed(2);
  let cpu = process.cpuUsage();
  const docs: SearchDoc[] = [];
  for (const h of hooks) docs.push(searchDoc(h, await decodePayload(h.headers, h.body)));
  const build = process.cpuUsage(cpu);
  cpu = process.cpuUsage();
  for (let j = 0; j < docs.length; j += BATCH) await store.index(docs.slice(j, j + BATCH));
  const write = process.cpuUsage(cpu);
  const us = (u: NodeJS.CpuUsage) => (u.user + u.system) / N;
  const text = docs.reduce((a, d) => a + d.text.length, 0) / N;
  console.log(
    `${N} hooks after ${BEFORE} (batches of ${BATCH}, text ${text.toFixed(0)} chars a hook; load average ${load} before, ${loadavg()[0]!.toFixed(2)} after):`,
  );
  console.log(
    `  documents ${us(build).toFixed(1)} µs of CPU a hook, index writes ${us(write).toFixed(1)} µs, together ${(us(build) + us(write)).toFixed(1)} µs`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
