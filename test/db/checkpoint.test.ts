import { afterAll, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { HIGH_MARK_PAGES, startCheckpointer } from "../../src/db/checkpoint";
import { openDatabase } from "../../src/db/open";
import type { Log } from "../../src/lib/log";
import { removeTempDirs, tempDir } from "../helpers/binary";

afterAll(removeTempDirs);

const THREAD = new URL("../../src/db/checkpoint-thread.ts", import.meta.url).href;

function recordingLog() {
  const errors: string[] = [];
  const log: Log = { info() {}, warn() {}, error: (message) => void errors.push(message) };
  return { log, errors };
}

const autocheckpoint = (db: ReturnType<typeof openDatabase>) =>
  (db.$client.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;

/**
 * Waits until the database file holds every page the database has (PRAGMA page_count, which
 * counts what is still only in the WAL): the thread copied all of it. Fails after 60 s.
 */
async function copied(db: ReturnType<typeof openDatabase>, path: string) {
  const sql = db.$client;
  const bytes = () => {
    const r = sql.query("SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()").get() as { n: number };
    return r.n;
  };
  const deadline = Date.now() + 60_000;
  while (statSync(path).size < bytes()) {
    if (Date.now() > deadline) throw new Error(`the checkpoint thread copied ${statSync(path).size} of ${bytes()} bytes in 60 s`);
    await Bun.sleep(20);
  }
}

/** Writes `rows` rows of 3,000 bytes, one transaction per 10 rows, as the catching endpoint does. */
function write(db: ReturnType<typeof openDatabase>, rows: number) {
  const sql = db.$client;
  sql.run("CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, data BLOB NOT NULL)");
  const insert = sql.prepare("INSERT INTO filler (data) VALUES (?)");
  const data = new Uint8Array(3000).fill(7);
  for (let i = 0; i < rows; i += 10)
    sql.transaction(() => {
      for (let j = 0; j < 10; j++) insert.run(data);
    })();
}

test("the checkpoint thread copies the WAL into the database file, and the WAL starts over", async () => {
  const path = join(tempDir("mailroom-ckpt-"), "m.db");
  const db = openDatabase({ path, durability: "full" });
  const { log, errors } = recordingLog();
  const checkpointer = startCheckpointer({ sql: db.$client, path, threadUrl: THREAD, log });
  // The main connection only checkpoints past a high mark, far above what this test writes.
  expect(autocheckpoint(db)).toBe(HIGH_MARK_PAGES);
  expect(HIGH_MARK_PAGES * 4096).toBeGreaterThan(20_000_000);
  const before = statSync(path).size;
  write(db, 3000); // ~9 MB: without a checkpoint, all of it would stay in the WAL
  await copied(db, path);
  expect(statSync(path).size).toBeGreaterThan(before + 8_000_000);
  const walAfterFirst = statSync(`${path}-wal`).size;
  // Once all of it was copied, the next writes start the WAL over instead of growing it.
  write(db, 3000);
  await copied(db, path);
  expect(statSync(path).size).toBeGreaterThan(before + 17_000_000);
  expect(statSync(`${path}-wal`).size).toBeLessThan(walAfterFirst * 1.3);
  const count = db.$client.query("SELECT count(*) AS n FROM filler").get() as { n: number };
  expect(count.n).toBe(6000);
  await checkpointer.close();
  db.$client.close();
  expect(errors).toEqual([]);
});

test("if the checkpoint thread cannot start, the main connection checkpoints by itself again", async () => {
  const path = join(tempDir("mailroom-ckpt-"), "m.db");
  const db = openDatabase({ path, durability: "normal" });
  const { log, errors } = recordingLog();
  const missing = new URL("./no-such-thread.ts", import.meta.url).href;
  const checkpointer = startCheckpointer({ sql: db.$client, path, threadUrl: missing, log });
  const deadline = Date.now() + 5000;
  while (autocheckpoint(db) !== 1000 && Date.now() < deadline) await Bun.sleep(10);
  expect(autocheckpoint(db)).toBe(1000);
  expect(errors.length).toBeGreaterThan(0);
  await checkpointer.close();
  db.$client.close();
});
