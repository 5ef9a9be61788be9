/** A delivery id remembered with the hook it was first stored as (time in ms). */
export type DeliveryRow = { channel: string; deliveryId: string; hookId: string; createdAt: number };

/** What `claim` found: the delivery id is now the caller's, or its hook is stored, or another claim holds it. */
export type ClaimOutcome = { claimed: true } | { hookId: string } | { pending: true };

/**
 * Storage of deduplication: the delivery ids seen per channel, the claims of hooks being stored
 * right now, and each channel's count of repeats dropped, on either backend (db/stores/dedup.ts).
 * Every method is async; `record` runs in the caught batch's transaction, the other writes in a
 * transaction (or one statement) of their own. Lookups resolve to undefined for a missing row; any
 * method rejects with the database's own error (nothing is then changed).
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
