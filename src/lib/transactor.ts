/**
 * How the stores run a unit of work, on either backend. Store methods are async; the ones marked
 * "in transaction" join the transaction the caller opened with `transaction()`, which every store
 * on the same database shares (the hook store, the attempt queue and dedup commit a caught batch
 * together). The implementations (SQLite's and PostgreSQL's) are in db/.
 */
export interface Transactor {
  readonly dialect: "sqlite" | "postgres";
  /**
   * Runs fn in one transaction: commits when it resolves, rolls back and rethrows when it rejects.
   * A call made inside another transaction of the same database runs in a savepoint of it.
   * Throws what fn throws, or the database's error (busy, connection lost) with nothing committed.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
}
