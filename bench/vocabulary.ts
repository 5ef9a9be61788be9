/**
 * What SQLite's search vocabulary holds and what its prune's look-up costs, on an index file kept
 * by a run (bench/million.ts --keep DIR: DIR/data/mailroom.db-search), read-only:
 *
 *   bun run bench/vocabulary.ts --index DIR/data/mailroom.db-search [--words 5000] [--removals 5000]
 *
 * Prints the vocabulary's words and addresses, the bytes of its tables (dbstat), and the CPU of the
 * prune's question for `--words` words from the first and from the middle: whether any hook the index
 * holds has the word (db/sqlite/search-vocabulary.ts), counting the words none has. With
 * --removals N, also the CPU of removing N words as a pass removes them (the word, then its
 * trigrams' row), in transactions of 512, on a copy of the file in the temporary folder.
 */
import { Database } from "bun:sqlite";
import { copyFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: { index: { type: "string" }, words: { type: "string", default: "5000" }, removals: { type: "string" } },
});
if (!args.index) throw new Error("--index PATH: an index file (mailroom.db-search)");
const db = new Database(args.index, { readonly: true });
const n = (text: string) => (db.query(text).get() as { n: number }).n;
const words = n("SELECT count(*) AS n FROM search_words");
console.log(`vocabulary: ${words} words, ${n("SELECT count(*) AS n FROM search_ips")} addresses; hooks indexed: ${n("SELECT count(*) AS n FROM search_rows")}`);
const tables = db
  .query(
    "SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'search_word%' OR name LIKE 'sqlite_autoindex_search_words%' OR name LIKE 'search_ips%' GROUP BY name",
  )
  .all() as { name: string; bytes: number }[];
const mib = (b: number) => (b / 1048576).toFixed(1);
console.log(`its tables: ${mib(tables.reduce((a, t) => a + t.bytes, 0))} MiB (${tables.map((t) => `${t.name} ${mib(t.bytes)}`).join(", ")})`);
const held = db.query("SELECT 1 FROM search_index WHERE search_index MATCH ? LIMIT 1");
const phrase = (s: string) => `"${s.replaceAll('"', '""')}"`;
const take = Number(args.words);
for (const from of [0, Math.floor(words / 2)]) {
  const rows = db.query("SELECT word FROM search_words WHERE id > ? ORDER BY id LIMIT ?").values(from, take) as [string][];
  const cpu = process.cpuUsage();
  let none = 0;
  for (const [w] of rows) if (held.get(phrase(w)) === null) none++;
  const used = process.cpuUsage(cpu);
  console.log(`${rows.length} words after id ${from}: ${((used.user + used.system) / rows.length) | 0} µs of CPU a word; ${none} held by no hook`);
}

if (args.removals) {
  db.close();
  const copy = join(tmpdir(), `mailroom-vocabulary-${process.pid}.db`);
  copyFileSync(args.index, copy);
  try {
    const rw = new Database(copy);
    const rows = rw.query("SELECT id, word FROM search_words WHERE id > ? ORDER BY id LIMIT ?").values(Math.floor(words / 3), Number(args.removals)) as [
      number,
      string,
    ][];
    const cpu = process.cpuUsage();
    for (let i = 0; i < rows.length; i += 512) {
      rw.transaction(() => {
        for (const [id, word] of rows.slice(i, i + 512)) {
          rw.query("DELETE FROM search_words WHERE id = ?").run(id);
          rw.query("INSERT INTO search_word_grams (search_word_grams, rowid, word) VALUES ('delete', ?, ?)").run(id, word);
        }
      })();
    }
    const used = process.cpuUsage(cpu);
    console.log(`${rows.length} words removed: ${((used.user + used.system) / rows.length) | 0} µs of CPU a word`);
    rw.close();
  } finally {
    for (const f of [copy, `${copy}-wal`, `${copy}-shm`]) rmSync(f, { force: true });
  }
}
