import type { Db } from "../db/sqlite/open";
import { statementCache } from "../db/sqlite/statements";
import { report, sqliteTransactor } from "../db/transactor";

/** A guard defined in the dashboard: `settings` is JSON text without the secret, kept apart. Times in ms. */
export type GuardRow = { name: string; kind: string; settings: string; secret: string | null; createdAt: number; updatedAt: number };

/**
 * Storage of the guards defined in the dashboard (the config file's are never stored). Every
 * method is async and writes in a transaction of its own. Lookups resolve to undefined for a
 * missing guard and changes to false; any method rejects with the database's own error.
 */
export interface GuardStore {
  /** Every stored guard, by name. */
  list(): Promise<GuardRow[]>;
  /** The stored guard, or undefined. */
  get(name: string): Promise<GuardRow | undefined>;
  /** false when the name is taken (nothing changes then). */
  insert(row: GuardRow): Promise<boolean>;
  /** Replaces the settings and secret; false when there is no such guard. */
  update(name: string, settings: string, secret: string | null, updatedAt: number): Promise<boolean>;
  /** false when there was no such guard. */
  remove(name: string): Promise<boolean>;
}

type GuardRecord = { name: string; kind: string; settings: string; secret: string | null; created_at: number; updated_at: number };
const COLUMNS = "name, kind, settings, secret, created_at, updated_at";
const toRow = (r: GuardRecord): GuardRow => ({
  name: r.name,
  kind: r.kind,
  settings: r.settings,
  secret: r.secret,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The SQLite side. */
export function createGuardStore(db: Db): GuardStore {
  const sql = db.$client;
  const q = statementCache(sql);
  const { transaction } = sqliteTransactor(sql);
  /** Reports the guards as changed when `done` (once the caller's transaction commits). */
  const changed = (done: boolean) => (done && report(sql, { kind: "state", part: "guards" }), done);
  return {
    async list() {
      return (q(`SELECT ${COLUMNS} FROM dashboard_guards ORDER BY name`).all() as GuardRecord[]).map(toRow);
    },
    async get(name) {
      const r = q(`SELECT ${COLUMNS} FROM dashboard_guards WHERE name = ?`).get(name) as GuardRecord | null;
      return r ? toRow(r) : undefined;
    },
    insert: (row) =>
      transaction(async () => {
        const added = q(`INSERT INTO dashboard_guards (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`).run(
          row.name,
          row.kind,
          row.settings,
          row.secret,
          row.createdAt,
          row.updatedAt,
        );
        return changed(added.changes > 0);
      }),
    update: (name, settings, secret, updatedAt) =>
      transaction(async () =>
        changed(q("UPDATE dashboard_guards SET settings = ?, secret = ?, updated_at = ? WHERE name = ?").run(settings, secret, updatedAt, name).changes > 0),
      ),
    remove: (name) => transaction(async () => changed(q("DELETE FROM dashboard_guards WHERE name = ?").run(name).changes > 0)),
  };
}
