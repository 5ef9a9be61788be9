import type { Db } from "../db/sqlite/open";
import { statementCache } from "../db/sqlite/statements";
import { report, sqliteTransactor } from "../db/transactor";

/** A forward handler added in the dashboard. `headers` is JSON text; durations and times in ms. */
export type ForwardRow = {
  name: string;
  channel: string;
  url: string;
  headers: string;
  maxAttempts: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
  timeoutMs: number;
  createdAt: number;
  /** JSON of the `chaos` table as written (the dashboard's chaos toggle), null when off. */
  chaos: string | null;
};

/**
 * Storage of the forward handlers added in the dashboard. Every method is async and writes in a
 * transaction of its own. Lookups resolve to undefined for a missing handler and changes to false;
 * any method rejects with the database's own error.
 */
export interface ForwardStore {
  /** Every stored forward, by name. */
  list(): Promise<ForwardRow[]>;
  /** The stored handler, or undefined. */
  get(name: string): Promise<ForwardRow | undefined>;
  /** false when the name is taken (nothing changes then). */
  insert(row: ForwardRow): Promise<boolean>;
  /** false when there was no such handler. */
  remove(name: string): Promise<boolean>;
}

type ForwardRecord = {
  name: string;
  channel: string;
  url: string;
  headers: string;
  max_attempts: number;
  backoff_initial_ms: number;
  backoff_max_ms: number;
  timeout_ms: number;
  created_at: number;
  chaos: string | null;
};
const COLUMNS = "name, channel, url, headers, max_attempts, backoff_initial_ms, backoff_max_ms, timeout_ms, created_at, chaos";
const toRow = (r: ForwardRecord): ForwardRow => ({
  name: r.name,
  channel: r.channel,
  url: r.url,
  headers: r.headers,
  maxAttempts: r.max_attempts,
  backoffInitialMs: r.backoff_initial_ms,
  backoffMaxMs: r.backoff_max_ms,
  timeoutMs: r.timeout_ms,
  createdAt: r.created_at,
  chaos: r.chaos,
});

/** The SQLite side. */
export function createForwardStore(db: Db): ForwardStore {
  const sql = db.$client;
  const q = statementCache(sql);
  const { transaction } = sqliteTransactor(sql);
  /** Reports the forwards as changed when `done` (once the caller's transaction commits). */
  const changed = (done: boolean) => (done && report(sql, { kind: "state", part: "forwards" }), done);
  return {
    async list() {
      return (q(`SELECT ${COLUMNS} FROM dashboard_handlers ORDER BY name`).all() as ForwardRecord[]).map(toRow);
    },
    async get(name) {
      const r = q(`SELECT ${COLUMNS} FROM dashboard_handlers WHERE name = ?`).get(name) as ForwardRecord | null;
      return r ? toRow(r) : undefined;
    },
    insert: (r) =>
      transaction(async () => {
        const added = q(`INSERT INTO dashboard_handlers (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`).run(
          r.name,
          r.channel,
          r.url,
          r.headers,
          r.maxAttempts,
          r.backoffInitialMs,
          r.backoffMaxMs,
          r.timeoutMs,
          r.createdAt,
          r.chaos,
        );
        return changed(added.changes > 0);
      }),
    remove: (name) => transaction(async () => changed(q("DELETE FROM dashboard_handlers WHERE name = ?").run(name).changes > 0)),
  };
}
