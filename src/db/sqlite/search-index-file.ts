import type { Database } from "bun:sqlite";
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Log } from "../../lib/log";

/**
 * SQLite's search index lives in a file of its own next to the data file (`mailroom.db-search`,
 * with its own `-wal` and `-shm`), attached as `search` to the connections that read or write it:
 * the index thread's write transactions then never hold the data file's write lock that catching
 * takes. It is derived data: a missing, unreadable or older index file is made again, empty, and
 * the start-up sweep indexes every hook into it. An in-memory database keeps it in memory.
 */
export function searchIndexPath(dataPath: string): string {
  return dataPath === ":memory:" ? ":memory:" : `${dataPath}-search`;
}

/**
 * Attaches the index of the data file at `dataPath` to `sql` (with `create`, see attachSearchIndex)
 * and says where it is. The index is derived data: a file that cannot be opened or made (read-only,
 * owned by another user, a full disk) must not stop catching, so it is then kept in a file of a
 * fresh temporary folder (removed by `discard`), or failing that in memory, until a restart.
 */
export function openSearchIndex(sql: Database, dataPath: string, log?: Log): { path: string; discard: () => void } {
  const path = searchIndexPath(dataPath);
  try {
    attachSearchIndex(sql, path, true);
    return { path, discard() {} };
  } catch (error) {
    if (attached(sql)) sql.run("DETACH DATABASE search");
    let dir: string | undefined;
    try {
      dir = mkdtempSync(join(tmpdir(), "mailroom-search-"));
      attachSearchIndex(sql, join(dir, "index"), true);
    } catch {
      if (dir) rmSync(dir, { recursive: true, force: true });
      if (attached(sql)) sql.run("DETACH DATABASE search");
      dir = undefined;
      attachSearchIndex(sql, ":memory:", true);
    }
    const where = dir ? join(dir, "index") : ":memory:";
    log?.error(`the search index file ${path} cannot be used; the search index is kept in ${where} until a restart`, { error: String(error) });
    return { path: where, discard: () => dir && rmSync(dir, { recursive: true, force: true }) };
  }
}

const attached = (sql: Database) => (sql.query("PRAGMA database_list").all() as { name: string }[]).some((d) => d.name === "search");

/** The index's layout; another value in the file's user_version makes it again (2: trigrams of the text; 4: the senders' addresses). */
const FORMAT = 4;
const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS search.search_rows (n INTEGER PRIMARY KEY NOT NULL, hook_id TEXT NOT NULL UNIQUE)",
  // The hooks' words and keys (search-store.ts), one token each.
  `CREATE VIRTUAL TABLE IF NOT EXISTS search.search_index USING fts5(words, content='', contentless_delete=1, detail=none, tokenize="ascii tokenchars '_'")`,
  // The vocabulary: every word indexed once, and the trigrams of each (pruned: search-vocabulary.ts).
  "CREATE TABLE IF NOT EXISTS search.search_words (id INTEGER PRIMARY KEY NOT NULL, word TEXT NOT NULL UNIQUE)",
  "CREATE VIRTUAL TABLE IF NOT EXISTS search.search_word_grams USING fts5(word, content='', detail=none, tokenize='trigram case_sensitive 1')",
  // The senders' addresses (ipHex) indexed once (pruned with the vocabulary): `ip:` reads those of its block, then asks for their keys.
  "CREATE TABLE IF NOT EXISTS search.search_ips (hex TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID",
  // Counters kept across restarts: `purged`, hooks' entries purged since the vocabulary's last prune (search-vocabulary.ts).
  "CREATE TABLE IF NOT EXISTS search.search_meta (name TEXT PRIMARY KEY NOT NULL, n INTEGER NOT NULL) WITHOUT ROWID",
];

/**
 * Attaches the index file at `path` to `sql` as `search`. With `create`, makes its tables when
 * missing, and makes the file again when it cannot be read or holds another format (one process
 * does this, before any other connection attaches it).
 */
export function attachSearchIndex(sql: Database, path: string, create = false): void {
  if (!create) return attach(sql, path);
  if (path !== ":memory:") ownerOnly(path);
  try {
    attach(sql, path);
    prepare(sql, path);
  } catch {
    // SQLite may refuse a damaged file at ATTACH or at its first read.
    if (attached(sql)) sql.run("DETACH DATABASE search");
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
    ownerOnly(path);
    attach(sql, path);
    prepare(sql, path);
  }
}

function attach(sql: Database, path: string): void {
  sql.run("ATTACH DATABASE ? AS search", [path]);
  // Derived data: a batch a power cut loses is indexed again by the sweep, so no sync per batch.
  sql.run("PRAGMA search.synchronous = NORMAL");
}

/** Readable by its owner only, as the data file (db/sqlite/open.ts): it holds the hooks' text. SQLite gives -wal and -shm its mode. */
function ownerOnly(path: string): void {
  closeSync(openSync(path, "a", 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

function prepare(sql: Database, path: string): void {
  const { user_version: version } = sql.query("PRAGMA search.user_version").get() as { user_version: number };
  const { n: tables } = sql.query("SELECT count(*) AS n FROM search.sqlite_master").get() as { n: number };
  if (tables > 0 && version !== FORMAT) throw new Error(`the search index file holds format ${version}`);
  if (path !== ":memory:") sql.run("PRAGMA search.journal_mode = WAL"), sql.run("PRAGMA search.journal_size_limit = 67108864");
  for (const statement of SCHEMA) sql.run(statement);
  // A new file owes the vocabulary's prune nothing; one made before the prune has no count, and is due a pass.
  if (tables === 0) sql.run("INSERT INTO search.search_meta (name, n) VALUES ('purged', 0) ON CONFLICT (name) DO NOTHING");
  sql.run(`PRAGMA search.user_version = ${FORMAT}`);
  // Reads the tables once: a damaged file fails here rather than in the first search.
  sql.query("SELECT count(*) FROM search.search_index WHERE search_index MATCH 'abc'").get();
  sql.query("SELECT count(*) FROM search.search_word_grams WHERE search_word_grams MATCH 'abc'").get();
  sql.query("SELECT max(n) FROM search.search_rows").get();
}
