import { Database } from "bun:sqlite";
import { chmodSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

/** Thrown by lockDataFile when another process holds the data file. */
export class DataFileInUse extends Error {}

/**
 * Holds an exclusive lock on `<path>.lock` (an empty SQLite file beside the data file) for as long
 * as the returned connection stays open: one Mailroom per data file. Two would each batch and
 * count on their own, and their in-memory channel states would disagree. The OS drops the lock
 * with the process, so a restart after a crash (kill -9) is never refused. Throws DataFileInUse.
 */
export function lockDataFile(path: string): Database {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const lock = new Database(`${path}.lock`, { create: true });
  chmodSync(`${path}.lock`, 0o600);
  try {
    lock.run("PRAGMA busy_timeout = 0");
    lock.run("PRAGMA journal_mode = MEMORY"); // nothing is written: no journal file beside it
    lock.run("PRAGMA locking_mode = EXCLUSIVE");
    lock.run("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    if (/locked|busy/i.test(String(error))) {
      throw new DataFileInUse(`the data file ${path} is in use by another Mailroom (it holds ${path}.lock); stop that one first`);
    }
    throw error;
  }
  return lock;
}
