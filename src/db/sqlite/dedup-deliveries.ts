import type { Database } from "bun:sqlite";
import type { DeliveryIds } from "../stores/dedup";
import { sqliteTransactor } from "../transactor";

/** In-flight claims of one SQLite connection, by channel and delivery id: the token and when it was made. */
const claimsOf = new WeakMap<object, Map<string, { token: string; at: number }>>();

/**
 * SQLite's delivery ids and claims (db/stores/dedup.ts says why they are the backend's own): the
 * data file is one process's (db/lock.ts), so a claim is kept beside the connection and only
 * committed delivery ids are rows. `claim` is synchronous from its lookup to its answer, on a
 * statement prepared once: it runs for each caught hook of a deduplicating channel.
 */
export function sqliteDeliveryIds(sql: Database): DeliveryIds {
  const { transaction } = sqliteTransactor(sql);
  const lookup = sql.prepare("SELECT hook_id AS hookId, created_at AS createdAt FROM deliveries WHERE channel = ? AND delivery_id = ?");
  let claims = claimsOf.get(sql);
  if (!claims) claimsOf.set(sql, (claims = new Map()));
  const held = claims;
  const remember = sql.prepare(
    "INSERT INTO deliveries (channel, delivery_id, hook_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (channel, delivery_id) DO UPDATE SET hook_id = excluded.hook_id, created_at = excluded.created_at",
  );
  const channels = sql.prepare("SELECT DISTINCT channel FROM deliveries");
  const sweep = sql.prepare("DELETE FROM deliveries WHERE rowid IN (SELECT rowid FROM deliveries WHERE channel = ? AND created_at < ? LIMIT ?)");
  const forget = sql.prepare("DELETE FROM deliveries WHERE channel = ?");
  return {
    async claim(row, windowStart, staleBefore) {
      // Synchronous from here to the end: no other claim of this connection runs in between.
      const k = `${row.channel}\n${row.deliveryId}`;
      const other = held.get(k);
      if (other && other.at >= staleBefore) return { pending: true };
      // A row is committed: a claimed key's row is written only in its batch, and the claim lasts
      // until that batch committed (so a read here never sees an open batch's row).
      const stored = lookup.get(row.channel, row.deliveryId) as { hookId: string; createdAt: number } | null;
      if (stored && stored.createdAt >= windowStart) return { hookId: stored.hookId };
      held.set(k, { token: row.hookId, at: row.createdAt });
      return { claimed: true };
    },
    async record(rows) {
      for (const r of rows) remember.run(r.channel, r.deliveryId, r.hookId, r.createdAt);
    },
    async release(channel, deliveryId, token, stored) {
      const k = `${channel}\n${deliveryId}`;
      if (held.get(k)?.token !== token) return stored;
      held.delete(k);
      return true;
    },
    async channels() {
      return (channels.values() as [string][]).map(([c]) => c);
    },
    sweep: (channel, before, limit) =>
      transaction(async () => {
        for (const [k, c] of held) if (k.startsWith(`${channel}\n`) && c.at < before) held.delete(k);
        return sweep.run(channel, before, limit).changes;
      }),
    async forget(channel) {
      for (const k of held.keys()) if (k.startsWith(`${channel}\n`)) held.delete(k);
      forget.run(channel);
    },
  };
}
