import type { SQL } from "bun";
import { ulid } from "ulid";
import type { Config } from "../config/schema";
import type { Log } from "../lib/log";
import type { Storage } from "./storage";
import { openDatabase } from "./sqlite/open";
import { DataFileInUse, lockDataFile } from "./sqlite/lock";
import { createSqliteStorage } from "./sqlite/storage";
import { openPostgres, openReadPool, PostgresOpenError, redactPostgresUrl } from "./pg/open";
import { migratePostgres } from "./pg/migrate";
import { createPostgresStorage } from "./pg/storage";

/** Why storage could not be opened, in words for the terminal (never a password). */
export class StorageOpenError extends Error {}

export type OpenedStorage = { storage: Storage; describe: string; instance: string };

/**
 * Opens what `[storage]` names and applies its migrations: PostgreSQL when `url` is set (several
 * instances may share it; migrations run once under an advisory lock), else the SQLite file, locked
 * for this process. Throws StorageOpenError when the file is in use, or the database cannot be
 * reached, is too old or refuses the credentials.
 */
export async function openStorage(config: Config, log: Log, opts: { checkpointThreadUrl: string; searchThreadUrl?: string }): Promise<OpenedStorage> {
  const instance = ulid().toLowerCase();
  const { url } = config.storage;
  if (url) {
    // The pools opened so far, closed when a later step fails (a migration, the feed's LISTEN).
    const opened: SQL[] = [];
    try {
      const sql = await openPostgres(url);
      opened.push(sql);
      await migratePostgres(sql);
      // Searches and counts: their own pool, whose connections plan each statement for its values (none behind a pooler that refuses it).
      const reads = await openReadPool(url, log);
      if (reads) opened.push(reads);
      const storage = await createPostgresStorage(sql, { instance, leaseMs: config.storage.attempt_lease, log, reads });
      return { storage, instance, describe: `${redactPostgresUrl(url)} (PostgreSQL; instance ${instance})` };
    } catch (error) {
      await Promise.allSettled(opened.map((pool) => pool.close({ timeout: 0 })));
      if (error instanceof PostgresOpenError) throw new StorageOpenError(error.message);
      throw error;
    }
  }
  const { path, durability } = config.storage;
  let lock;
  try {
    // Kept for the process's life; the OS releases it however the process ends.
    lock = path === ":memory:" ? undefined : lockDataFile(path);
  } catch (error) {
    if (error instanceof DataFileInUse) throw new StorageOpenError(error.message);
    throw error;
  }
  const db = openDatabase({ path, durability });
  const storage = createSqliteStorage(db, {
    path,
    durability,
    lock,
    checkpoints: { log, threadUrl: opts.checkpointThreadUrl },
    searchThreadUrl: opts.searchThreadUrl,
  });
  return { storage, instance, describe: `${path} (durability ${durability})` };
}
