import { Database } from "bun:sqlite";
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as schema from "../../schema/sqlite";
import { embeddedMigrations } from "../migrations.macro" with { type: "macro" };

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export type OpenOptions = { path: string; durability: "full" | "normal" };

/**
 * Opens the database, sets its pragmas and applies the embedded migrations.
 * WAL lets readers run beside the writer; `synchronous = FULL` fsyncs every commit, NORMAL
 * survives a crash of the process but not of the machine.
 */
export function openDatabase({ path, durability }: OpenOptions): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const sqlite = new Database(path, { create: true, strict: true });
  // Readable by its owner only: it holds hooks, dashboard guards' secrets and session hashes. SQLite
  // gives the -wal and -shm files the database file's mode; ones left from before are set too.
  if (path !== ":memory:") for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run(`PRAGMA synchronous = ${durability === "full" ? "FULL" : "NORMAL"}`);
  sqlite.run("PRAGMA foreign_keys = ON");
  sqlite.run("PRAGMA busy_timeout = 5000");
  sqlite.run("PRAGMA temp_store = MEMORY");
  // After a burst, the WAL is cut back to 64 MiB when it starts over.
  sqlite.run("PRAGMA journal_size_limit = 67108864");
  const db = drizzle({ client: sqlite, schema }) as Db;
  migrate(db);
  return db;
}

/** Applies migrations not yet applied, in one transaction each, as drizzle's migrator does. */
export function migrate(db: Db): void {
  const migrations = embeddedMigrations();
  // The bun-sqlite migrator reads files from disk; its dialect step takes the list directly.
  (db as any).dialect.migrate(migrations, (db as any).session, { migrationsFolder: "embedded" });
}

export { schema };
