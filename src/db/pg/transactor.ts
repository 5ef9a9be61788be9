import type { SQL } from "bun";
import { currentTransaction, emitReported, keepReportsOf, runInside, type OpenTransaction, type Transactor } from "../transactor";

/** PostgreSQL's side of Transactor, plus the connection a store method runs its statement on. */
export interface PgTransactor extends Transactor {
  /** The open transaction's connection in this flow, or the pool outside a transaction. */
  exec(): SQL;
  /** The outermost transaction open in this flow, if any. */
  current(): OpenTransaction | undefined;
  /**
   * A transaction of writes whose results are not read (a caught batch): the statements fn makes
   * through `exec().unsafe()` are collected, then sent after fn resolves: alone when there is one
   * (a statement is atomic by itself: one round trip instead of three), else in one transaction.
   * A statement made any other way inside throws.
   */
  writes<T>(fn: () => Promise<T>): Promise<T>;
  readonly sql: SQL;
}

type Statement = [text: string, params: unknown[]];

/** What exec() gives inside writes(): unsafe() collects; anything else is a mistake. */
function collector(into: Statement[]): SQL {
  const refuse = () => {
    throw new Error("inside writes(), statements go through unsafe() and their results are not read");
  };
  const fake = Object.assign(refuse, {
    unsafe(text: string, params: unknown[] = []) {
      into.push([text, params]);
      return Promise.resolve(Object.assign([], { count: 0 }));
    },
  });
  return fake as unknown as SQL;
}

/**
 * Transactions on Bun's built-in client: `sql.begin` holds one pooled connection for the whole
 * callback; the flow's store calls find it through AsyncLocalStorage (db/transactor.ts), so the
 * services are written once for both backends. Nested calls become savepoints. READ COMMITTED,
 * PostgreSQL's default: what must not race takes row locks (FOR UPDATE) or advisory locks.
 */
export function pgTransactor(sql: SQL): PgTransactor {
  return {
    dialect: "postgres",
    sql,
    exec(): SQL {
      return (currentTransaction(sql)?.tx as SQL | undefined) ?? sql;
    },
    async writes<T>(fn: () => Promise<T>): Promise<T> {
      if (currentTransaction(sql)) return fn();
      const statements: Statement[] = [];
      const t: OpenTransaction = { owner: sql, depth: 0, tx: collector(statements), beforeCommit: [] };
      const value = await runInside(t, async () => {
        const v = await fn();
        for (const work of t.beforeCommit!) await work();
        return v;
      });
      if (statements.length === 1) await sql.unsafe(...statements[0]!);
      else if (statements.length > 1) await sql.begin(async (tx) => {
        for (const [text, params] of statements) await tx.unsafe(text, params);
      });
      emitReported(t);
      return value;
    },
    current() {
      const open = currentTransaction(sql);
      return open?.top ?? open;
    },
    transaction<T>(fn: () => Promise<T>): Promise<T> {
      const open = currentTransaction(sql);
      if (open) {
        const tx = open.tx as SQL & { savepoint<R>(f: (sp: SQL) => Promise<R>): Promise<R> };
        const top = open.top ?? open;
        return tx.savepoint((sp) => runInside({ owner: sql, depth: open.depth + 1, tx: sp, top }, () => keepReportsOf(top, fn)));
      }
      const t: OpenTransaction = { owner: sql, depth: 0, beforeCommit: [] };
      return (sql.begin((tx) => {
        t.tx = tx;
        return runInside(t, async () => {
          const value = await fn();
          for (const work of t.beforeCommit!) await work();
          return value;
        });
      }) as Promise<T>).then((value) => {
        emitReported(t);
        return value;
      });
    },
  };
}

/** A bigint (int8) or numeric column as PostgreSQL sends it (a string) to a number. */
export function num(v: string | number | bigint): number;
export function num(v: string | number | bigint | null): number | null;
export function num(v: string | number | bigint | null): number | null {
  return v === null ? null : Number(v);
}
