import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Runs at bundle time (imported `with { type: "macro" }`): reads drizzle-kit's output and
 * inlines it, so `bun build --compile` embeds the migrations in the executable.
 * Returns them in the shape drizzle's migrator takes.
 */
export function embeddedMigrations(): { sql: string[]; bps: boolean; folderMillis: number; hash: string }[] {
  const dir = join(import.meta.dir, "../../drizzle");
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
