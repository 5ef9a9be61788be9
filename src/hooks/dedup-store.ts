import type { Db } from "../db/open";
import { statementCache } from "../db/statements";
import { sqliteTransactor } from "../db/transactor";

/** A delivery id remembered with the hook it was first stored as (time in ms). */
export type DeliveryRow = { channel: string; deliveryId: string; hookId: string; createdAt: number };

/**
 * Storage of deduplication: the delivery ids seen per channel and each channel's count of repeats
 * dropped. Every method is async; `record` runs in the caught batch's transaction, the other
 * writes in a transaction of their own. Lookups resolve to undefined for a missing row; any
 * method rejects with the database's own error.
 */
export interface DedupStore {
  /** One point query on the primary key (channel, delivery id): the catching endpoint asks it for each hook with an id. */
  lookup(channel: string, deliveryId: string): Promise<{ hookId: string; createdAt: number } | undefined>;
  /** In transaction: remembers the delivery ids of a caught batch (a repeat of an old one replaces it). */
  record(rows: readonly DeliveryRow[]): Promise<void>;
  /** Counts one repeat dropped at `at`; resolves to the channel's count since the database was made. */
  countDrop(channel: string, at: number): Promise<number>;
  stats(channel: string): Promise<{ dropped: number; lastDroppedAt: number | null } | undefined>;
  /** Repeats dropped per channel, since the database was made. */
  droppedCounts(): Promise<Map<string, number>>;
  /** Channels that hold delivery ids. */
  channels(): Promise<string[]>;
  /** Deletes at most `limit` of the channel's delivery ids older than `before`; resolves to how many. */
  sweep(channel: string, before: number, limit: number): Promise<number>;
  /** Deletes the channel's delivery ids and its count together. */
  forget(channel: string): Promise<void>;
}

/** The SQLite side. */
export function createDedupStore(db: Db): DedupStore {
  const sql = db.$client;
  const q = statementCache(sql);
  const { transaction } = sqliteTransactor(sql);
  const lookup = sql.prepare("SELECT hook_id AS hookId, created_at AS createdAt FROM deliveries WHERE channel = ? AND delivery_id = ?");
  const remember = sql.prepare(
    "INSERT INTO deliveries (channel, delivery_id, hook_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (channel, delivery_id) DO UPDATE SET hook_id = excluded.hook_id, created_at = excluded.created_at",
  );
  return {
    async lookup(channel, deliveryId) {
      return (lookup.get(channel, deliveryId) as { hookId: string; createdAt: number } | null) ?? undefined;
    },
    async record(rows) {
      for (const r of rows) remember.run(r.channel, r.deliveryId, r.hookId, r.createdAt);
    },
    countDrop: (channel, at) =>
      transaction(async () => {
        const row = q(
          "INSERT INTO dedup_stats (channel, dropped, last_dropped_at) VALUES (?, 1, ?) ON CONFLICT (channel) DO UPDATE SET dropped = dropped + 1, last_dropped_at = excluded.last_dropped_at RETURNING dropped",
        ).get(channel, at) as { dropped: number };
        return row.dropped;
      }),
    async stats(channel) {
      return (q("SELECT dropped, last_dropped_at AS lastDroppedAt FROM dedup_stats WHERE channel = ?").get(channel) as { dropped: number; lastDroppedAt: number | null } | null) ?? undefined;
    },
    async droppedCounts() {
      const rows = q("SELECT channel, dropped FROM dedup_stats").all() as { channel: string; dropped: number }[];
      return new Map(rows.map((r) => [r.channel, r.dropped]));
    },
    async channels() {
      return (q("SELECT DISTINCT channel FROM deliveries").values() as [string][]).map(([c]) => c);
    },
    sweep: (channel, before, limit) =>
      transaction(async () =>
        q("DELETE FROM deliveries WHERE rowid IN (SELECT rowid FROM deliveries WHERE channel = ? AND created_at < ? LIMIT ?)").run(channel, before, limit).changes,
      ),
    forget: (channel) =>
      transaction(async () => {
        q("DELETE FROM deliveries WHERE channel = ?").run(channel);
        q("DELETE FROM dedup_stats WHERE channel = ?").run(channel);
      }),
  };
}
