import { fromRow, type RelayStore } from "../../relay/store";
import { report } from "../transactor";
import type { PgTransactor } from "./transactor";

/**
 * PostgreSQL's side of RelayStore. A claim locks the relay's row (or, when there is none, inserts
 * it with ON CONFLICT DO NOTHING and reads again), so two instances claiming at once agree.
 */
export function createPgRelayStore(t: PgTransactor): RelayStore {
  const x = () => t.exec();
  const changed = () => report(t.sql, { kind: "state", part: "relays" });
  return {
    claim: (who, now, staleBefore) =>
      t.transaction(async () => {
        const args = [who.handler, who.listener, who.host, who.startedAt, who.connectedAt, now, who.instance];
        const inserted = await x().unsafe(
          `INSERT INTO relay_listeners (handler, listener, host, started_at, connected_at, seen_at, instance) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (handler) DO NOTHING`,
          args,
        );
        if (inserted.count > 0) return (changed(), { claimed: true } as const);
        const [held] = await x().unsafe("SELECT * FROM relay_listeners WHERE handler = $1 FOR UPDATE", [who.handler]);
        if (held && held.listener !== who.listener && Number(held.seen_at) >= staleBefore) return { claimed: false, holder: fromRow(held) };
        await x().unsafe(
          `UPDATE relay_listeners SET listener = $2, host = $3, started_at = $4, connected_at = $5, seen_at = $6, instance = $7 WHERE handler = $1`,
          args,
        );
        changed();
        return { claimed: true } as const;
      }),
    async touch(handler, listener, instance, now) {
      const r = await x().unsafe("UPDATE relay_listeners SET seen_at = $1 WHERE handler = $2 AND listener = $3 AND instance = $4", [
        now,
        handler,
        listener,
        instance,
      ]);
      return r.count > 0;
    },
    async release(handler, listener, instance) {
      const r = await x().unsafe("DELETE FROM relay_listeners WHERE handler = $1 AND listener = $2 AND instance = $3", [handler, listener, instance]);
      if (r.count > 0) changed();
    },
    async list() {
      return ((await x().unsafe("SELECT * FROM relay_listeners ORDER BY handler")) as Parameters<typeof fromRow>[0][]).map(fromRow);
    },
  };
}
