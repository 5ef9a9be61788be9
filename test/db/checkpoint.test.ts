import { afterAll, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { HIGH_MARK_PAGES, startCheckpointer } from "../../src/db/sqlite/checkpoint";
import { openDatabase } from "../../src/db/sqlite/open";
import type { Log } from "../../src/lib/log";
import { removeTempDirs, tempDir } from "../helpers/binary";

afterAll(removeTempDirs);

const THREAD = new URL("../../src/db/sqlite/checkpoint-thread.ts", import.meta.url).href;

function recordingLog() {
  const errors: string[] = [];
  const log: Log = { info() {}, warn() {}, error: (message) => void errors.push(message) };
  return { log, errors };
}

const autocheckpoint = (db: ReturnType<typeof openDatabase>) =>
  (db.$client.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;

/**
 * Frames in the WAL, and how many of them a checkpoint copied into the database file: mxFrame and
 * nBackfill of the WAL-index header in the -shm file (SQLite's file format, "WAL-index format":
 * offsets 16 and 96, in the machine's byte order). Read without a connection, so reading them
 * checkpoints nothing.
 */
function walState(path: string): { frames: number; copied: number } {
  const head = readFileSync(`${path}-shm`).subarray(0, 100);
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  return { frames: view.getUint32(16, little), copied: view.getUint32(96, little) };
}

/** The WAL header's checkpoint sequence number (offset 12, big-endian): one more each time the WAL starts over. */
const walRestarts = (path: string) => readFileSync(`${path}-wal`).readUInt32BE(12);

/**
 * Waits until the checkpoint thread copied every frame of the WAL into the database file (then the
 * next write starts the WAL over). Fails after 60 s.
 */
async function copied(path: string) {
  const deadline = Date.now() + 60_000;
  for (let s = walState(path); s.copied < s.frames; s = walState(path)) {
    if (Date.now() > deadline) throw new Error(`the checkpoint thread copied ${s.copied} of ${s.frames} frames in 60 s`);
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
  await copied(path);
  expect(statSync(path).size).toBeGreaterThan(before + 8_000_000);
  // Once all of it was copied, the next write starts the WAL over instead of growing it: the WAL
  // header's checkpoint sequence number goes up, and the WAL holds only that write's frames.
  const restarts = walRestarts(path);
  write(db, 10);
  expect(walRestarts(path)).toBe(restarts + 1);
  expect(walState(path).frames).toBeLessThan(20);
  write(db, 2990);
  await copied(path);
  expect(statSync(path).size).toBeGreaterThan(before + 17_000_000);
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
