import type { GuardRow, GuardStore } from "../../hooks/guard-store";
import { report } from "../transactor";
import { num, type PgTransactor } from "./transactor";

type GuardRecord = { name: string; kind: string; settings: string; secret: string | null; created_at: string; updated_at: string };
const COLUMNS = "name, kind, settings, secret, created_at, updated_at";
const toRow = (r: GuardRecord): GuardRow => ({
  name: r.name,
  kind: r.kind,
  settings: r.settings,
  secret: r.secret,
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at),
});

/** PostgreSQL's side of GuardStore (guards defined in the dashboard). */
export function createPgGuardStore(t: PgTransactor): GuardStore {
  const x = () => t.exec();
  /** Reports the guards as changed when `done` (once the caller's transaction commits). */
  const changed = (done: boolean) => (done && report(t.sql, { kind: "state", part: "guards" }), done);
  return {
    async list() {
      return ((await x().unsafe(`SELECT ${COLUMNS} FROM dashboard_guards ORDER BY name`)) as GuardRecord[]).map(toRow);
    },
    async get(name) {
      const [r] = (await x().unsafe(`SELECT ${COLUMNS} FROM dashboard_guards WHERE name = $1`, [name])) as GuardRecord[];
      return r ? toRow(r) : undefined;
    },
    async insert(row) {
      const added = await x().unsafe(`INSERT INTO dashboard_guards (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name) DO NOTHING`, [
        row.name,
        row.kind,
        row.settings,
        row.secret,
        row.createdAt,
        row.updatedAt,
      ]);
      return changed(added.count > 0);
    },
    async update(name, settings, secret, updatedAt) {
      return changed(
        (await x().unsafe("UPDATE dashboard_guards SET settings = $1, secret = $2, updated_at = $3 WHERE name = $4", [settings, secret, updatedAt, name]))
          .count > 0,
      );
    },
    async remove(name) {
      return changed((await x().unsafe("DELETE FROM dashboard_guards WHERE name = $1", [name])).count > 0);
    },
  };
}
