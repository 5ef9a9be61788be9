import { AsyncLocalStorage } from "node:async_hooks";
import type { Database } from "bun:sqlite";
import { createChangeSink, type Change, type ChangeSink } from "../hooks/changes";
import type { Transactor } from "../lib/transactor";

// The contract is in lib/ (features declare stores on it); its implementations are here.
export type { Transactor };

/**
 * The transaction the current async flow runs in: its database (`owner`), its savepoint depth, and
 * on PostgreSQL the connection it holds (`tx`).
 */
export type OpenTransaction = {
  owner: object;
  depth: number;
  tx?: unknown;
  /** PostgreSQL: work run once, just before COMMIT, in the order added (by the outermost transaction). */
  beforeCommit?: (() => Promise<void>)[];
  /** The outermost transaction, for a savepoint. */
  top?: OpenTransaction;
  /** Changes reported inside (by the outermost transaction): emitted once it committed, dropped on rollback. */
  reported?: Change[];
};
const inside = new AsyncLocalStorage<OpenTransaction>();

const sinks = new WeakMap<object, ReturnType<typeof createChangeSink>>();

/** The change sink of one database (its connection or pool): every store on it reports there. */
export function changesOf(owner: object): ChangeSink & { setLog: ReturnType<typeof createChangeSink>["setLog"] } {
  let sink = sinks.get(owner);
  if (!sink) sinks.set(owner, (sink = createChangeSink()));
  return sink;
}

/**
 * Reports a change made on this database: inside a transaction it waits for the commit (and is
 * dropped if the transaction, or the savepoint it was made in, rolls back); outside one the
 * statement has committed already and it is emitted at once.
 */
export function report(owner: object, change: Change): void {
  const open = currentTransaction(owner);
  if (!open) return changesOf(owner).emit(change);
  const top = open.top ?? open;
  (top.reported ??= []).push(change);
}

/** Emits what a committed transaction reported, in order. */
export function emitReported(t: OpenTransaction): void {
  const changes = t.reported;
  if (!changes?.length) return;
  t.reported = undefined;
  const sink = changesOf(t.owner);
  for (const c of changes) sink.emit(c);
}

/** Runs a savepoint's fn, dropping what it reported when it throws (its statements roll back). */
export async function keepReportsOf<T>(top: OpenTransaction, fn: () => Promise<T>): Promise<T> {
  const mark = top.reported?.length ?? 0;
  try {
    return await fn();
  } catch (error) {
    if (top.reported) top.reported.length = mark;
    throw error;
  }
}

/** The transaction the current flow is in for this database, if any. */
export function currentTransaction(owner: object): OpenTransaction | undefined {
  const t = inside.getStore();
  return t?.owner === owner ? t : undefined;
}

/** Runs fn as inside the transaction `t` (the PostgreSQL side hands its connection this way). */
export function runInside<T>(t: OpenTransaction, fn: () => Promise<T>): Promise<T> {
  return inside.run(t, fn);
}

export interface SqliteTransactor extends Transactor {
  /**
   * Like transaction, with `synchronous = NORMAL` for this commit on a connection set to FULL: it
   * does not wait for the disk, the caller syncs the WAL itself (db/sqlite/wal-sync.ts) before it
   * reports success. The level is set before BEGIN and back after COMMIT, while this transaction
   * has its turn, so no other commits at the lower level by accident.
   */
  transactionUnsynced<T>(fn: () => Promise<T>): Promise<T>;
}

const sqliteTransactors = new WeakMap<Database, SqliteTransactor>();

/**
 * SQLite's side: one connection, so transactions take turns (an async mutex) and one that is open
 * never sees another begin on the same connection. BEGIN IMMEDIATE takes the write lock at once.
 * Reads made outside any transaction while one is open run on the same connection; stores write
 * only inside transactions.
 */
export function sqliteTransactor(sql: Database): SqliteTransactor {
  const known = sqliteTransactors.get(sql);
  if (known) return known;
  let tail: Promise<void> = Promise.resolve();

  async function savepoint<T>(t: OpenTransaction, fn: () => Promise<T>): Promise<T> {
    const name = `sp${t.depth + 1}`;
    const top = t.top ?? t;
    sql.run(`SAVEPOINT ${name}`);
    try {
      const value = await inside.run({ owner: sql, depth: t.depth + 1, top }, () => keepReportsOf(top, fn));
      sql.run(`RELEASE ${name}`);
      return value;
    } catch (error) {
      sql.run(`ROLLBACK TO ${name}`);
      sql.run(`RELEASE ${name}`);
      throw error;
    }
  }

  async function transaction<T>(fn: () => Promise<T>, unsynced = false): Promise<T> {
    const open = currentTransaction(sql);
    if (open) return savepoint(open, fn);
    const previous = tail;
    let release!: () => void;
    tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    if (unsynced) sql.run("PRAGMA synchronous = NORMAL");
    try {
      sql.run("BEGIN IMMEDIATE");
      const t: OpenTransaction = { owner: sql, depth: 0 };
      try {
        const value = await inside.run(t, fn);
        sql.run("COMMIT");
        emitReported(t);
        return value;
      } catch (error) {
        if (sql.inTransaction) sql.run("ROLLBACK");
        throw error;
      }
    } finally {
      if (unsynced) sql.run("PRAGMA synchronous = FULL");
      release();
    }
  }

  const transactor: SqliteTransactor = {
    dialect: "sqlite",
    transaction: (fn) => transaction(fn),
    transactionUnsynced: (fn) => transaction(fn, true),
  };
  sqliteTransactors.set(sql, transactor);
  return transactor;
}
