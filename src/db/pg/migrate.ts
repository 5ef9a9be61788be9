import type { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { embeddedMigrations } from "../migrations.macro" with { type: "macro" };
import { checkServerVersion } from "./open";

/**
 * The advisory lock migrations run under, so that instances starting together migrate once:
 * the first applies them, the others wait, then find nothing left to do. Any fixed bigint will do;
 * this one spells "mailroom" in a way (0x6d61696c = "mail").
 */
export const MIGRATION_LOCK_KEY = 0x6d61696c;

/**
 * Applies the embedded migrations of drizzle-pg/ not yet applied, in one transaction, as
 * drizzle's PostgreSQL migrator does (bookkeeping in drizzle.__drizzle_migrations), holding
 * MIGRATION_LOCK_KEY on one reserved connection meanwhile. A lost connection releases the lock.
 * Throws PostgresOpenError("too_old") before PostgreSQL 15, and the server's error when a
 * migration fails (nothing of it is then applied).
 */
export async function migratePostgres(sql: SQL): Promise<void> {
  await checkServerVersion(sql);
  const connection = await sql.reserve();
  try {
    await connection.unsafe(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    try {
      const db = drizzle({ client: connection });
      // As in ../open.ts: the bun-sql migrator reads files from disk, its dialect step takes the list.
      await (db as any).dialect.migrate(embeddedMigrations("drizzle-pg"), (db as any).session, { migrationsFolder: "embedded" });
    } finally {
      // Ignored on failure: the lock goes with its session if the connection was lost.
      await connection.unsafe(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`).catch(() => {});
    }
  } finally {
    await connection.release();
  }
}
