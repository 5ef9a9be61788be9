/**
 * The two backends a store contract suite runs on: SQLite (a fresh in-memory database) and
 * PostgreSQL (a fresh database on the test cluster, see test/helpers/postgres.ts). Each suite
 * names its store's two constructors and gets, per test, the store, a second store on the same
 * database (on PostgreSQL over a pool of its own, as another instance has; on SQLite over the same
 * connection, since one process owns a data file), the transaction that store methods marked "in
 * transaction" join, and raw SQL to look past the store.
 *
 * @example
 * afterEach(closeBackends);
 * for (const backend of contractBackends((db) => createGuardStore(sqliteDialect(db.$client)), (t) => createGuardStore(pgDialect(t))))
 *   describe(backend.name, () => ...)
 */
import { openDatabase, type Db } from "../../../src/db/sqlite/open";
import { migratePostgres } from "../../../src/db/pg/migrate";
import { openPostgres } from "../../../src/db/pg/open";
import { pgTransactor, type PgTransactor } from "../../../src/db/pg/transactor";
import { changesOf, sqliteTransactor } from "../../../src/db/transactor";
import type { ChangeSink } from "../../../src/hooks/changes";
import { freshDatabase } from "../../helpers/postgres";

export type Backend<S> = {
  name: "sqlite" | "postgres";
  store: S;
  /** The same store as another instance sees it (see above). */
  another(): Promise<S>;
  /** One transaction of this database: what "in transaction" methods join. */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /** Rows of a statement run past the store (no parameters: tests write literals). */
  query(text: string): Promise<Record<string, unknown>[]>;
  /** The change sink the store reports to (db/transactor.ts report), to check what it reported. */
  changes: ChangeSink;
};

type Opener<S> = { name: "sqlite" | "postgres"; open(): Promise<Backend<S>> };

const closers: (() => Promise<void>)[] = [];

/** Closes what the tests of this file opened: each suite file calls `afterEach(closeBackends)`. */
export async function closeBackends(): Promise<void> {
  for (const close of closers.splice(0)) await close();
}

export function contractBackends<S>(sqlite: (db: Db) => S, postgres: (t: PgTransactor) => S): Opener<S>[] {
  return [
    {
      name: "sqlite",
      async open() {
        const db = openDatabase({ path: ":memory:", durability: "normal" });
        closers.push(async () => db.$client.close());
        const t = sqliteTransactor(db.$client);
        return {
          name: "sqlite",
          store: sqlite(db),
          another: async () => sqlite(db),
          transaction: (fn) => t.transaction(fn),
          query: async (text) => db.$client.query(text).all() as Record<string, unknown>[],
          changes: changesOf(db.$client),
        };
      },
    },
    {
      name: "postgres",
      async open() {
        const url = await freshDatabase();
        // Small pools: a suite opens a database per test, two instances' pools each (and their
        // pools of searches and counts, as openStorage opens them).
        const sql = await openPostgres(url, { max: 4 });
        const reads = await openPostgres(url, { max: 2, customPlans: true });
        closers.push(
          () => sql.close(),
          () => reads.close(),
        );
        await migratePostgres(sql);
        const t = pgTransactor(sql, reads);
        return {
          name: "postgres",
          store: postgres(t),
          async another() {
            const other = await openPostgres(url, { max: 4 });
            const otherReads = await openPostgres(url, { max: 2, customPlans: true });
            closers.push(
              () => other.close(),
              () => otherReads.close(),
            );
            return postgres(pgTransactor(other, otherReads));
          },
          transaction: (fn) => t.transaction(fn),
          query: async (text) => [...((await sql.unsafe(text)) as Record<string, unknown>[])],
          changes: changesOf(sql),
        };
      },
    },
  ];
}

/** Settles every promise; resolves to the values of those that resolved and the errors of the others. */
export async function race<T>(work: Promise<T>[]): Promise<{ values: T[]; errors: unknown[] }> {
  const settled = await Promise.allSettled(work);
  return {
    values: settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : [])),
    errors: settled.flatMap((s) => (s.status === "rejected" ? [s.reason] : [])),
  };
}
