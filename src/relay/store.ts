import type { Db } from "../db/sqlite/open";
import { statementCache } from "../db/sqlite/statements";
import { report, sqliteTransactor } from "../db/transactor";

/** Who listens on a relay: the laptop (its id, host and start) and the instance holding its connection. Times in ms. */
export type RelayListener = {
  handler: string;
  listener: string;
  host: string;
  startedAt: number;
  connectedAt: number;
  seenAt: number;
  instance: string;
};

/** What claim() answers: the relay is this listener's now, or another holds it (named for the error). */
export type Claim = { claimed: true } | { claimed: false; holder: RelayListener };

/**
 * Storage of the relays' listeners: one per relay (key and channel) across the instances sharing
 * the database. Every write is a transaction of its own and reports `{kind: "state", part: "relays"}`
 * once committed. Any method rejects with the database's own error when the database fails.
 */
export interface RelayStore {
  /**
   * Makes `who` the relay's listener when nobody holds it, when the holder is the same listener (a
   * laptop reconnecting, to this instance or another), or when the holder was last seen before
   * `staleBefore` (its instance died). Otherwise resolves to the holder, changing nothing. Of two
   * claims at once by different listeners, one wins.
   */
  claim(who: Omit<RelayListener, "seenAt">, now: number, staleBefore: number): Promise<Claim>;
  /** Notes that the holder is still connected; false when the relay is no longer this listener's on this instance. */
  touch(handler: string, listener: string, instance: string, now: number): Promise<boolean>;
  /** Lets go of the relay if this listener on this instance holds it; no error otherwise. */
  release(handler: string, listener: string, instance: string): Promise<void>;
  /** Every listener, by handler. */
  list(): Promise<RelayListener[]>;
}

type Row = { handler: string; listener: string; host: string; started_at: number; connected_at: number; seen_at: number; instance: string };
export const fromRow = (r: Row): RelayListener => ({
  handler: r.handler,
  listener: r.listener,
  host: r.host,
  startedAt: Number(r.started_at),
  connectedAt: Number(r.connected_at),
  seenAt: Number(r.seen_at),
  instance: r.instance,
});

/** The SQLite side. */
export function createRelayStore(db: Db): RelayStore {
  const sql = db.$client;
  const q = statementCache(sql);
  const { transaction } = sqliteTransactor(sql);
  const changed = () => report(sql, { kind: "state", part: "relays" });
  return {
    claim: (who, now, staleBefore) =>
      transaction(async () => {
        const held = q("SELECT * FROM relay_listeners WHERE handler = ?").get(who.handler) as Row | null;
        if (held && held.listener !== who.listener && held.seen_at >= staleBefore) return { claimed: false, holder: fromRow(held) };
        q(
          `INSERT INTO relay_listeners (handler, listener, host, started_at, connected_at, seen_at, instance) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (handler) DO UPDATE SET listener = excluded.listener, host = excluded.host, started_at = excluded.started_at,
           connected_at = excluded.connected_at, seen_at = excluded.seen_at, instance = excluded.instance`,
        ).run(who.handler, who.listener, who.host, who.startedAt, who.connectedAt, now, who.instance);
        changed();
        return { claimed: true } as const;
      }),
    touch: (handler, listener, instance, now) =>
      transaction(async () => {
        return (
          q("UPDATE relay_listeners SET seen_at = ? WHERE handler = ? AND listener = ? AND instance = ?").run(now, handler, listener, instance).changes > 0
        );
      }),
    release: (handler, listener, instance) =>
      transaction(async () => {
        if (q("DELETE FROM relay_listeners WHERE handler = ? AND listener = ? AND instance = ?").run(handler, listener, instance).changes > 0) changed();
      }),
    async list() {
      return (q("SELECT * FROM relay_listeners ORDER BY handler").all() as Row[]).map(fromRow);
    },
  };
}
