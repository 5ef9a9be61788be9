import { expect, test } from "bun:test";
import { migratePostgres } from "../../src/db/pg/migrate";
import { openPostgres } from "../../src/db/pg/open";
import { createPgSearchStore } from "../../src/db/pg/search-store";
import { pgTransactor } from "../../src/db/pg/transactor";
import { parseSearch } from "../../src/search/query";
import { freshDatabase } from "../helpers/postgres";

type Plans = { statement: string; generic: number; custom: number }[];
const PREPARED = `SELECT statement, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
  WHERE statement LIKE 'SELECT count(*)%' OR statement LIKE 'SELECT _.id AS id%'`;

// A saved view's count runs again and again on the same connections. PostgreSQL may keep a generic
// plan of a prepared statement from its sixth run, made without the values (a LIKE pattern, a tag,
// a status): at 1,000,000 hooks such a plan counted `refund tag:big` in 1.2 s instead of 55 ms
// (docs/benchmarks.md). The search store's statements are planned for their values every time:
// on the pool of reads outside a transaction, on the transaction's connection inside one.
test("a search or count run many times on one connection is planned for its values every time, never generically", async () => {
  const url = await freshDatabase();
  const sql = await openPostgres(url, { max: 1 });
  const reads = await openPostgres(url, { max: 1, customPlans: true });
  try {
    await migratePostgres(sql);
    const t = pgTransactor(sql, reads);
    const store = createPgSearchStore(t);
    for (const q of ["refund tag:big", "tag:vip status:failed", "foxtrot status:failed after:-7d"])
      for (let i = 0; i < 8; i++) {
        await store.count({ terms: parseSearch(q) }, 10_000);
        await store.search({ terms: parseSearch(q), limit: 50 });
        // Inside a caller's transaction too, and in a savepoint of it.
        await t.transaction(async () => {
          await store.count({ terms: parseSearch(q) }, 10_000);
          await t.transaction(() => store.search({ terms: parseSearch(q), limit: 50 }));
        });
      }
    const outside = (await reads.unsafe(PREPARED)) as Plans;
    const inside = (await sql.unsafe(PREPARED)) as Plans;
    expect([outside.length, inside.length]).toEqual([6, 6]);
    for (const p of [...outside, ...inside])
      expect({ statement: p.statement, generic: p.generic, custom: p.custom >= 8 }).toEqual({ statement: p.statement, generic: 0, custom: true });
  } finally {
    await sql.close();
    await reads.close();
  }
}, 30_000);

test("every connection of the pool of reads plans for the values, reopened ones too: one statement, no transaction", async () => {
  const url = await freshDatabase();
  const sql = await openPostgres(url, { max: 2 });
  const reads = await openPostgres(url, { max: 3, customPlans: true });
  try {
    const t = pgTransactor(sql, reads);
    // Six reads at once on three connections: each is busy while the others start.
    const SHOW = `SELECT current_setting('plan_cache_mode') AS mode, pg_backend_pid() AS pid, now() = statement_timestamp() AS alone FROM pg_sleep(0.2)`;
    const look = async () =>
      (await Promise.all([1, 2, 3, 4, 5, 6].map(() => t.read(SHOW)))).map((r) => (r as { mode: string; pid: number; alone: boolean }[])[0]!);
    const first = await look();
    expect(new Set(first.map((r) => r.pid)).size).toBe(3);
    // now() is the transaction's start: equal to the statement's, no BEGIN came before it.
    expect(first.map((r) => [r.mode, r.alone])).toEqual(Array(6).fill(["force_custom_plan", true]));
    // Connections lost (a restarted server, a proxy's timeout) are reopened with the setting.
    await sql.unsafe(`SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS p(pid)`, [[...new Set(first.map((r) => r.pid))]]);
    let again: typeof first | undefined;
    for (let i = 0; i < 20 && !again; i++) again = await look().catch(() => undefined);
    expect(again!.map((r) => r.mode)).toEqual(Array(6).fill("force_custom_plan"));
    expect(again!.some((r) => first.some((f) => f.pid === r.pid))).toBe(false);
    // The main pool keeps PostgreSQL's default for everything else.
    expect(((await sql.unsafe(`SHOW plan_cache_mode`)) as { plan_cache_mode: string }[])[0]!.plan_cache_mode).toBe("auto");
  } finally {
    await sql.close();
    await reads.close();
  }
}, 30_000);
