import { expect, test } from "bun:test";
import { migratePostgres } from "../../src/db/pg/migrate";
import { openPostgres } from "../../src/db/pg/open";
import { createPgSearchStore } from "../../src/db/pg/search-store";
import { pgTransactor } from "../../src/db/pg/transactor";
import { parseSearch } from "../../src/search/query";
import { freshDatabase } from "../helpers/postgres";

// A saved view's count runs again and again on the same connections. PostgreSQL may keep a generic
// plan of a prepared statement from its sixth run, made without the values (a LIKE pattern, a tag,
// a status): at 1,000,000 hooks such a plan counted `refund tag:big` in 1.2 s instead of 55 ms
// (docs/benchmarks.md). The search store's statements are planned for their values every time.
test("a search or count run many times on one connection is planned for its values every time, never generically", async () => {
  const sql = await openPostgres(await freshDatabase(), { max: 1 });
  try {
    await migratePostgres(sql);
    const t = pgTransactor(sql);
    const store = createPgSearchStore(t);
    for (const q of ["refund tag:big", "tag:vip status:failed", "foxtrot status:failed after:-7d"])
      for (let i = 0; i < 8; i++) {
        await store.count({ terms: parseSearch(q) }, 10_000);
        await store.search({ terms: parseSearch(q), limit: 50 });
        // Inside a caller's transaction too.
        await t.transaction(() => store.count({ terms: parseSearch(q) }, 10_000));
      }
    const plans = (await sql.unsafe(
      `SELECT statement, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE statement LIKE 'SELECT count(*)%' OR statement LIKE 'SELECT _.id AS id%'`,
    )) as { statement: string; generic: number; custom: number }[];
    expect(plans.length).toBe(6);
    for (const p of plans)
      expect({ statement: p.statement, generic: p.generic, custom: p.custom >= 8 }).toEqual({ statement: p.statement, generic: 0, custom: true });
  } finally {
    await sql.close();
  }
}, 30_000);
