import { HOOK_STATUSES } from "../../hooks/status";
import type { TransferHook, TransferStore } from "../../transfer/store";
import { report } from "../transactor";
import type { PgTransactor } from "./transactor";

/** PostgreSQL's side of TransferStore; counts go to one random slot of channel_counts per channel (hook-store.ts). */
export function createPgTransferStore(t: PgTransactor, slots: number): TransferStore {
  const x = () => t.exec();
  return {
    async importHooks(rows, guardsOfNewChannel) {
      const stored: TransferHook[] = [];
      const counts = new Map<string, Record<string, number>>();
      // Rows are locked in one order by every importer (hooks by id, then channels by name, then
      // counters by channel): two importers of one export, in any order, wait for each other
      // instead of deadlocking.
      for (const h of [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
        const put = await x().unsafe(
          `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, finalized_at, source_id, event_type)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (id) DO NOTHING`,
          [h.id, h.channel, h.status, h.method, h.query, JSON.stringify(h.headers), h.body, h.ip, h.createdAt, h.finalizedAt, h.sourceId, h.eventType],
        );
        if (put.count > 0) stored.push(h);
      }
      const firstOf = new Map<string, TransferHook>();
      for (const h of stored) if (!firstOf.has(h.channel)) firstOf.set(h.channel, h);
      for (const [channel, h] of [...firstOf].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        await x().unsafe("INSERT INTO channels (name, guards, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING", [
          channel,
          JSON.stringify(guardsOfNewChannel(channel)),
          h.createdAt,
        ]);
      }
      for (const h of stored) {
        for (const e of h.events) {
          await x().unsafe("INSERT INTO events (hook_id, kind, actor, message, created_at) VALUES ($1, $2, $3, $4, $5)", [
            h.id,
            e.kind,
            e.actor,
            e.message,
            e.createdAt,
          ]);
        }
        const c = counts.get(h.channel) ?? Object.fromEntries(HOOK_STATUSES.map((s) => [s, 0]));
        c[h.status]! += 1;
        counts.set(h.channel, c);
        report(t.sql, { kind: "hook", id: h.id, channel: h.channel, status: h.status });
      }
      const slot = Math.floor(Math.random() * slots);
      // In channel order, as every writer of channel_counts: no deadlock between instances.
      for (const channel of [...counts.keys()].sort()) {
        const c = counts.get(channel)!;
        await x().unsafe(
          `INSERT INTO channel_counts (channel, slot, pending, handled, failed, discarded) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (channel, slot) DO UPDATE SET pending = channel_counts.pending + excluded.pending,
             handled = channel_counts.handled + excluded.handled, failed = channel_counts.failed + excluded.failed,
             discarded = channel_counts.discarded + excluded.discarded`,
          [channel, slot, c.pending, c.handled, c.failed, c.discarded],
        );
      }
      return stored.map((h) => h.id);
    },
  };
}
