import type { SQL } from "bun";
import { currentTransaction, emitReported, keepReportsOf, runInside, type OpenTransaction, type Transactor } from "../transactor";

/** PostgreSQL's side of Transactor, plus the connection a store method runs its statement on. */
export interface PgTransactor extends Transactor {
  /** The open transaction's connection in this flow, or the pool outside a transaction. */
  exec(): SQL;
  /** The outermost transaction open in this flow, if any. */
  current(): OpenTransaction | undefined;
  /**
   * A caught batch: a unit of writes whose results are not read. The statements fn makes with
   * `write()` are collected as an explicit list, then sent after fn resolves: alone when there is
   * one (a statement is atomic by itself: one round trip instead of three), else in one
   * transaction. Inside, `exec()` throws: no statement there can answer, so none pretends to.
   */
  writes<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * A statement whose result is not read: inside `writes()` it joins the batch (and resolves at
   * once); elsewhere it runs now, on the flow's transaction or the pool.
   */
  write(text: string, params?: unknown[]): Promise<void>;
  /**
   * A read planned for its own values every time (PLAN_CACHE_MODE says why): one statement on the pool of
   * `reads` (whose connections plan so from their start), or on the flow's transaction after a
   * `SET LOCAL` (once per transaction). Throws what the statement throws; inside `writes()`, as
   * `exec()` does.
   */
  read(text: string, params?: unknown[]): Promise<unknown[]>;
  readonly sql: SQL;
}

/**
 * Why some reads are planned for their values: Bun prepares each statement once per connection,
 * and from its sixth run PostgreSQL may keep a generic plan, made without the values (a LIKE
 * pattern, a tag or a status of unknown selectivity). At 1,000,000 hooks such a plan counted
 * `refund tag:big` in 1.2 s instead of 55 ms (docs/benchmarks.md).
 */
export const PLAN_CACHE_MODE = "force_custom_plan";
const CUSTOM_PLANS = `SET LOCAL plan_cache_mode = ${PLAN_CACHE_MODE}`;

/**
 * How long reads go through the main pool (a transaction each, as without a pool of reads) once
 * the pool of reads could not connect; then it is tried again.
 */
export const READS_REST_MS = 30_000;

/**
 * Whether a statement failed for its connection, not for itself: refused or lost (Bun's
 * ERR_POSTGRES_CONNECTION_*, its idle and lifetime timeouts), a FATAL from the server (a pooler
 * put in front since start that refuses the pool's startup parameter, a terminated backend), or a
 * connection exception (SQLSTATE class 08). A statement's own error (syntax, a timeout) is not.
 */
export function lostConnection(error: unknown): boolean {
  const e = error as { code?: unknown; severity?: unknown; errno?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  return /^ERR_POSTGRES_(CONNECTION|IDLE_TIMEOUT|LIFETIME_TIMEOUT)/.test(code) || e?.severity === "FATAL" || String(e?.errno ?? "").startsWith("08");
}

/** Transaction levels (a transaction or a savepoint) whose SET LOCAL ran: a savepoint rolled back undoes its own. */
const customPlanned = new WeakSet<OpenTransaction>();

type Statement = [text: string, params: unknown[]];

/** What exec() gives inside writes(): nothing answers there (statements join the batch through write()). */
const NO_ANSWERS = new Proxy(() => {}, {
  get() {
    throw new Error("inside a caught batch (writes()), statements go through write() and their results are not read");
  },
  apply() {
    throw new Error("inside a caught batch (writes()), statements go through write() and their results are not read");
  },
}) as unknown as SQL;

/** The batch a flow inside writes() collects into. */
const batches = new WeakMap<OpenTransaction, Statement[]>();

/**
 * Transactions on Bun's built-in client: `sql.begin` holds one pooled connection for the whole
 * callback; the flow's store calls find it through AsyncLocalStorage (db/transactor.ts), so the
 * services are written once for both backends. Nested calls become savepoints. READ COMMITTED,
 * PostgreSQL's default: what must not race takes row locks (FOR UPDATE) or advisory locks.
 *
 * `reads`, when given, is a pool opened with `customPlans` (open.ts) for read(): outside a
 * transaction a read is then one statement, one round trip; without it, a read outside a
 * transaction runs in one of its own (BEGIN, SET LOCAL, the statement, COMMIT: four). A read the
 * pool of reads cannot connect for (lostConnection) runs that way instead, and so do the reads of
 * the next READS_REST_MS; `readsLost` is told each time it happens (once for the reads in flight then).
 */
export function pgTransactor(sql: SQL, reads?: SQL, readsLost?: (error: unknown) => void): PgTransactor {
  let readsRestUntil = Number.NEGATIVE_INFINITY;
  return {
    dialect: "postgres",
    sql,
    exec(): SQL {
      return (currentTransaction(sql)?.tx as SQL | undefined) ?? sql;
    },
    async writes<T>(fn: () => Promise<T>): Promise<T> {
      if (currentTransaction(sql)) return fn();
      const statements: Statement[] = [];
      const t: OpenTransaction = { owner: sql, depth: 0, tx: NO_ANSWERS, beforeCommit: [] };
      batches.set(t, statements);
      const value = await runInside(t, async () => {
        const v = await fn();
        for (const work of t.beforeCommit!) await work();
        return v;
      });
      if (statements.length === 1) await sql.unsafe(...statements[0]!);
      else if (statements.length > 1)
        await sql.begin(async (tx) => {
          for (const [text, params] of statements) await tx.unsafe(text, params);
        });
      emitReported(t);
      return value;
    },
    async write(text, params = []) {
      const open = currentTransaction(sql);
      const batch = open && batches.get(open.top ?? open);
      if (batch) batch.push([text, params]);
      else await ((open?.tx as SQL | undefined) ?? sql).unsafe(text, params);
    },
    async read(text, params = []) {
      const open = currentTransaction(sql);
      if (open) {
        const tx = open.tx as SQL;
        if (!customPlanned.has(open) && !customPlanned.has(open.top ?? open)) {
          await tx.unsafe(CUSTOM_PLANS);
          customPlanned.add(open);
        }
        return tx.unsafe(text, params);
      }
      if (reads && performance.now() >= readsRestUntil) {
        try {
          return await reads.unsafe(text, params);
        } catch (error) {
          if (!lostConnection(error)) throw error;
          // Told once however many reads were in flight when it was lost.
          if (performance.now() >= readsRestUntil) readsLost?.(error);
          readsRestUntil = performance.now() + READS_REST_MS;
        }
      }
      return sql.begin(async (tx) => {
        await tx.unsafe(CUSTOM_PLANS);
        return tx.unsafe(text, params);
      });
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
      return (
        sql.begin((tx) => {
          t.tx = tx;
          return runInside(t, async () => {
            const value = await fn();
            for (const work of t.beforeCommit!) await work();
            return value;
          });
        }) as Promise<T>
      ).then((value) => {
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
