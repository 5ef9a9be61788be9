import type { Transactor } from "../lib/transactor";
import { HOOK_STATUSES, type HookStatus } from "./status";

/**
 * The webhook service's storage contract (HookStore) and the rows it takes and gives. SQLite
 * (db/sqlite/hook-store.ts) and PostgreSQL (db/pg/hook-store.ts) meet it.
 */
export { HOOK_STATUSES, type HookStatus };

export type RawHook = {
  id: string;
  channel: string;
  status: HookStatus;
  method: string;
  query: string;
  headers: Record<string, string>;
  body: Uint8Array;
  ip: string;
  createdAt: number;
  finalizedAt: number | null;
  /** The sender's event type, "" when unknown (hooks/event-type.ts). */
  eventType: string;
  /** The hook this one was made from (edit and send, transfer/), else absent or null. */
  sourceId?: string | null;
  /**
   * Whether a guard that authenticates the sender (a signature, a token...) passed when it was
   * caught; null when unknown (caught before this was recorded), absent on hooks not caught.
   */
  verified?: boolean | null;
};

/** A hook as the writer receives it; `headers` is already serialised JSON. */
export type NewHook = Omit<RawHook, "headers" | "status" | "finalizedAt"> & {
  headers: string;
  /** The provider's delivery id, on a deduplicating channel (dedup/index.ts records it with the hook). */
  deliveryId?: string;
  /** Its Content-Type header as the catcher read it, for live summaries (stored only within `headers`). */
  contentType?: string | null;
};

export type ChannelRow = {
  name: string;
  paused: boolean;
  guards: string[];
  stats: Record<HookStatus, number>;
};

export type EventRow = { hookId: string; kind: string; actor: string; message: string; createdAt: number };

/** `head`: the body's first PREVIEW_BYTES bytes (hooks/preview.ts), read without the rest. */
export type HookSummaryRow = Omit<RawHook, "body"> & { size: number; head: Uint8Array };

/** What deleting a hook needs to know: its channel and status keep the counters right. */
export type HookKey = { id: string; channel: string; status: HookStatus };

/** A transition of many hooks (HookStore.moveMany): from which statuses, to which, and each one's event. */
export type HookMove = {
  from: readonly HookStatus[];
  to: HookStatus;
  finalizedAt: number | null;
  event: Omit<EventRow, "hookId">;
};

/** `eventType`: only hooks of that event type (exact), or of types starting with it when it ends with "*". */
export type ListQuery = { channel?: string; status?: HookStatus; eventType?: string; after?: string; limit: number };

/**
 * The webhook service's storage contract, met by SQLite (db/sqlite) and PostgreSQL (db/pg). Every
 * method is async; "in transaction" ones must run inside `transaction()` (shared with the attempt
 * queue and dedup of the same database). No method throws on a missing row: lookups resolve to
 * undefined, changes to false or 0. Any method rejects with the database's own error when the
 * database fails (disk full, connection lost); nothing is then committed.
 */
export interface HookStore extends Transactor {
  /** In transaction: stores caught hooks and counts them as pending, once per channel per batch. */
  insertHooks(rows: readonly NewHook[], guardsOfNewChannel: (channel: string) => string[]): Promise<void>;
  getHook(id: string): Promise<RawHook | undefined>;
  /** These hooks, in one statement, in no particular order; those gone are left out. */
  getHooks(ids: readonly string[]): Promise<RawHook[]>;
  /** A hook without its body, with the body's size (a live list's summary: no body is read). */
  getHookSummary(id: string): Promise<HookSummaryRow | undefined>;
  /** Ids of a page, newest first. */
  listHookIds(query: ListQuery): Promise<string[]>;
  /** The hooks of a page, newest first. */
  listHooks(query: ListQuery): Promise<RawHook[]>;
  /** Events of the given hooks, oldest first per hook (every id is a key, [] when it has none). */
  eventsOf(ids: readonly string[]): Promise<Map<string, EventRow[]>>;
  /**
   * In transaction: moves a hook from `hook.status` to `to` and keeps its channel's counters right,
   * only if its status is still `hook.status` (a compare-and-set: of two transitions racing from
   * one status, one wins). Resolves to false, changing nothing, when the hook is gone or its status
   * changed meanwhile. Reports the hook's change once committed.
   */
  setStatus(hook: RawHook, to: HookStatus, finalizedAt: number | null): Promise<boolean>;
  /** In transaction. */
  addEvent(e: EventRow): Promise<void>;
  /**
   * In transaction: setStatus and addEvent of many hooks at once (a bulk action's batch): each of
   * these hooks whose status is one of `move.from` (and that `keep` keeps) moves to `move.to` with
   * the event `move.event`, in a few statements whatever their number. The hooks are read and
   * locked (PostgreSQL: FOR UPDATE, in id order) before they change, so each moves once or not at
   * all, as setStatus's compare-and-set. Keeps the counters right, reports each once committed, and
   * resolves to the hooks moved with the status each had.
   */
  moveMany(ids: readonly string[], move: HookMove, keep?: (hook: HookKey) => boolean): Promise<HookKey[]>;
  /** Keys of a channel's hooks, oldest first, at most `limit`. */
  oldestKeys(channel: string, limit: number): Promise<HookKey[]>;
  /** Keys of the oldest hooks of all channels with ids below `id`, oldest first. */
  keysBelow(id: string, limit: number): Promise<HookKey[]>;
  /** Channels holding more than `max` hooks, with how many are over. */
  overfull(max: number): Promise<{ name: string; over: number }[]>;
  /** The id of a channel's newest hook. */
  newestId(channel: string): Promise<string | undefined>;
  /**
   * In transaction: deletes these hooks (events and attempts with them) and takes each off its
   * channel's counter by the status it has now; resolves to how many existed. Reports each.
   */
  deleteHooks(keys: readonly HookKey[]): Promise<number>;
  /** In transaction: deletes the hook with its events and attempts; false when it was gone already. Reports it. */
  deleteHook(hook: RawHook): Promise<boolean>;
  /**
   * In transaction: takes back hooks of a committed caught batch that were never announced (their
   * senders left before they were answered): deletes them with their events and attempts and takes
   * each off its channel's counter by the status it has now. Reports nothing: nobody was told of them.
   */
  retractCaught(ids: readonly string[]): Promise<void>;
  listChannels(): Promise<ChannelRow[]>;
  /** Every channel, oldest first. */
  channelsOldestFirst(): Promise<ChannelRow[]>;
  /** The database's size and its write-ahead log's (0 where there is none), in bytes. */
  storageBytes(): Promise<{ database: number; wal: number }>;
  getChannel(name: string): Promise<ChannelRow | undefined>;
  /**
   * Creates the channel if absent, then sets its guards; reports the channel. Resolves to false,
   * changing nothing, while the channel is being deleted (beginDeletion).
   */
  upsertChannel(name: string, guards: string[], now: number): Promise<boolean>;
  /**
   * Sets whether the channel is paused; reports the channel. Resolves to false, changing nothing,
   * when it does not exist, or for a pause while it is being deleted (a resume agrees with how a
   * deletion ends, so it is kept).
   */
  setPaused(name: string, paused: boolean): Promise<boolean>;
  /**
   * Marks the channel as being deleted since `at`, for every instance (pauses and guards are then
   * refused until endDeletion or deleteChannel). "busy" when another deletion's mark, made at or
   * after `staleBefore`, holds it (an older one is taken over: its instance is presumed gone);
   * "missing" when there is no such channel. Of two calls at once, one gets "begun".
   */
  beginDeletion(name: string, at: number, staleBefore: number): Promise<"begun" | "busy" | "missing">;
  /** Clears the channel's deletion mark (no error when there is none, or no channel). */
  endDeletion(name: string): Promise<void>;
  /** In transaction: removes the channel, its hooks and their events; false when absent. Reports the channel. */
  deleteChannel(name: string): Promise<boolean>;
  /**
   * How caught batches commit: a transaction whose commit may not be on disk yet when it resolves,
   * and `durable()` that resolves once it is (SQLite with durability "full" syncs the WAL off the
   * event loop; PostgreSQL commits durably and has no `durable`).
   */
  caughtTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

/** How many hooks a channel holds, from its counters. */
export function heldBy(stats: Record<HookStatus, number>): number {
  return stats.pending + stats.handled + stats.failed + stats.discarded;
}
