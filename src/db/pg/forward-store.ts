import type { ForwardRow, ForwardStore } from "../../forwards/store";
import { report } from "../transactor";
import { num, type PgTransactor } from "./transactor";

type ForwardRecord = {
  name: string;
  channel: string;
  url: string;
  headers: string;
  max_attempts: number;
  backoff_initial_ms: string;
  backoff_max_ms: string;
  timeout_ms: string;
  created_at: string;
  chaos: string | null;
};
const COLUMNS = "name, channel, url, headers, max_attempts, backoff_initial_ms, backoff_max_ms, timeout_ms, created_at, chaos";
const toRow = (r: ForwardRecord): ForwardRow => ({
  name: r.name,
  channel: r.channel,
  url: r.url,
  headers: r.headers,
  maxAttempts: Number(r.max_attempts),
  backoffInitialMs: num(r.backoff_initial_ms),
  backoffMaxMs: num(r.backoff_max_ms),
  timeoutMs: num(r.timeout_ms),
  createdAt: num(r.created_at),
  chaos: r.chaos,
});

/** PostgreSQL's side of ForwardStore (forward handlers added in the dashboard). */
export function createPgForwardStore(t: PgTransactor): ForwardStore {
  const x = () => t.exec();
  /** Reports the forwards as changed when `done` (once the caller's transaction commits). */
  const changed = (done: boolean) => (done && report(t.sql, { kind: "state", part: "forwards" }), done);
  return {
    async list() {
      return ((await x().unsafe(`SELECT ${COLUMNS} FROM dashboard_handlers ORDER BY name`)) as ForwardRecord[]).map(toRow);
    },
    async get(name) {
      const [r] = (await x().unsafe(`SELECT ${COLUMNS} FROM dashboard_handlers WHERE name = $1`, [name])) as ForwardRecord[];
      return r ? toRow(r) : undefined;
    },
    async insert(r) {
      const added = await x().unsafe(
        `INSERT INTO dashboard_handlers (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (name) DO NOTHING`,
        [r.name, r.channel, r.url, r.headers, r.maxAttempts, r.backoffInitialMs, r.backoffMaxMs, r.timeoutMs, r.createdAt, r.chaos],
      );
      return changed(added.count > 0);
    },
    async remove(name) {
      return changed((await x().unsafe("DELETE FROM dashboard_handlers WHERE name = $1", [name])).count > 0);
    },
  };
}
