import type { Db } from "../db/sqlite/open";
import { statementCache } from "../db/sqlite/statements";
import { sqliteTransactor } from "../db/transactor";

/** A delivery id remembered with the hook it was first stored as (time in ms). */
export type DeliveryRow = { channel: string; deliveryId: string; hookId: string; createdAt: number };

/** What `claim` found: the delivery id is now the caller's, or its hook is stored, or another claim holds it. */
export type ClaimOutcome = { claimed: true } | { hookId: string } | { pending: true };

/**
 * Storage of deduplication: the delivery ids seen per channel, the claims of hooks being stored
 * right now, and each channel's count of repeats dropped. Every method is async; `record` runs in
 * the caught batch's transaction, the other writes in a transaction (or one statement) of their
 * own. Lookups resolve to undefined for a missing row; any method rejects with the database's own
 * error (nothing is then changed).
 *
 * A claim is what makes one copy of a delivery the one stored while every other copy, on any
 * instance, waits for it. On PostgreSQL it is the `deliveries` row itself (pending until the
 * hook's batch commits); on SQLite, whose data file one process owns (db/lock.ts), it is kept
 * beside the connection, and only committed delivery ids are rows.
 */
export interface DedupStore {
  /**
   * Claims the delivery id for a hook about to be stored, unless its hook is stored with a time at
   * or after `windowStart` (resolves to that hook's id) or another claim made at or after
   * `staleBefore` holds it (resolves to pending: ask again later). A claim older than
   * `staleBefore` (its instance died) and a delivery stored before `windowStart` are taken over.
   * `row.hookId` is the claim's token, which `record` (the hook stored) or `release` end. Exactly
   * one of several concurrent callers gets `claimed`.
   */
  claim(row: DeliveryRow, windowStart: number, staleBefore: number): Promise<ClaimOutcome>;
  /**
   * In transaction: remembers the delivery ids of a caught batch with their hooks, ending their
   * claims once it commits (a repeat of an old id replaces it; the last of a batch wins).
   */
  record(rows: readonly DeliveryRow[]): Promise<void>;
  /**
   * Ends the claim of `token`: when its hook was not stored (stored: false) the delivery id is free
   * again, resolving to false, changing nothing, when the claim is not (or no longer) that token's;
   * after its batch committed (stored: true) it resolves to true (the batch ended the claim on
   * PostgreSQL; SQLite forgets it now).
   */
  release(channel: string, deliveryId: string, token: string, stored: boolean): Promise<boolean>;
  /** Counts one repeat dropped at `at`; resolves to the channel's count since the database was made. */
  countDrop(channel: string, at: number): Promise<number>;
  /** The channel's count of repeats dropped and when the last one came; undefined when it never dropped one. */
  stats(channel: string): Promise<{ dropped: number; lastDroppedAt: number | null } | undefined>;
  /** Repeats dropped per channel, since the database was made (channels without any are absent). */
  droppedCounts(): Promise<Map<string, number>>;
  /** Channels that hold delivery ids, in no particular order. */
  channels(): Promise<string[]>;
  /**
   * Deletes at most `limit` of the channel's delivery ids (and claims) made before `before`;
   * resolves to how many rows went.
   */
  sweep(channel: string, before: number, limit: number): Promise<number>;
  /** Deletes the channel's delivery ids, claims and count together (no error when it has none). */
  forget(channel: string): Promise<void>;
}

/** In-flight claims of one SQLite connection, by channel and delivery id: the token and when it was made. */
const claimsOf = new WeakMap<object, Map<string, { token: string; at: number }>>();

/** The SQLite side. */
export function createDedupStore(db: Db): DedupStore {
  const sql = db.$client;
  const q = statementCache(sql);
  const { transaction } = sqliteTransactor(sql);
  const lookup = sql.prepare("SELECT hook_id AS hookId, created_at AS createdAt FROM deliveries WHERE channel = ? AND delivery_id = ?");
  let claims = claimsOf.get(sql);
  if (!claims) claimsOf.set(sql, (claims = new Map()));
  const held = claims;
  const remember = sql.prepare(
    "INSERT INTO deliveries (channel, delivery_id, hook_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (channel, delivery_id) DO UPDATE SET hook_id = excluded.hook_id, created_at = excluded.created_at",
  );
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
    countDrop: (channel, at) =>
      transaction(async () => {
        const row = q(
          "INSERT INTO dedup_stats (channel, dropped, last_dropped_at) VALUES (?, 1, ?) ON CONFLICT (channel) DO UPDATE SET dropped = dropped + 1, last_dropped_at = excluded.last_dropped_at RETURNING dropped",
        ).get(channel, at) as { dropped: number };
        return row.dropped;
      }),
    async stats(channel) {
      return (
        (q("SELECT dropped, last_dropped_at AS lastDroppedAt FROM dedup_stats WHERE channel = ?").get(channel) as {
          dropped: number;
          lastDroppedAt: number | null;
        } | null) ?? undefined
      );
    },
    async droppedCounts() {
      const rows = q("SELECT channel, dropped FROM dedup_stats").all() as { channel: string; dropped: number }[];
      return new Map(rows.map((r) => [r.channel, r.dropped]));
    },
    async channels() {
      return (q("SELECT DISTINCT channel FROM deliveries").values() as [string][]).map(([c]) => c);
    },
    sweep: (channel, before, limit) =>
      transaction(async () => {
        for (const [k, c] of held) if (k.startsWith(`${channel}\n`) && c.at < before) held.delete(k);
        return q("DELETE FROM deliveries WHERE rowid IN (SELECT rowid FROM deliveries WHERE channel = ? AND created_at < ? LIMIT ?)").run(
          channel,
          before,
          limit,
        ).changes;
      }),
    forget: (channel) =>
      transaction(async () => {
        for (const k of held.keys()) if (k.startsWith(`${channel}\n`)) held.delete(k);
        q("DELETE FROM deliveries WHERE channel = ?").run(channel);
        q("DELETE FROM dedup_stats WHERE channel = ?").run(channel);
      }),
  };
}
