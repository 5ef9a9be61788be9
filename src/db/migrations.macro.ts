import { readFileSync } from "node:fs";
import { join } from "node:path";

/** drizzle-kit's output folders: SQLite's (drizzle.config.ts) and PostgreSQL's (drizzle.pg.config.ts). */
export type MigrationsFolder = "drizzle" | "drizzle-pg";

/**
 * Runs at bundle time (imported `with { type: "macro" }`): reads drizzle-kit's output and
 * inlines it, so `bun build --compile` embeds the migrations in the executable.
 * Returns them in the shape drizzle's migrators take. A macro takes literal arguments only.
 *
 * @example embeddedMigrations() // SQLite's; embeddedMigrations("drizzle-pg") for PostgreSQL
 */
export function embeddedMigrations(folder: MigrationsFolder = "drizzle"): { sql: string[]; bps: boolean; folderMillis: number; hash: string }[] {
  if (folder !== "drizzle" && folder !== "drizzle-pg") throw new Error(`unknown migrations folder ${folder}`);
  const dir = join(import.meta.dir, "../..", folder);
  const journal = JSON.parse(readFileSync(join(dir, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string; when: number; breakpoints: boolean }[];
  };
  return journal.entries.map((entry) => {
    const query = readFileSync(join(dir, `${entry.tag}.sql`), "utf8");
    return {
      sql: query.split("--> statement-breakpoint"),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: new Bun.CryptoHasher("sha256").update(query).digest("hex"),
    };
  });
}
