import { statSync } from "node:fs";
import type { Database, Statement } from "bun:sqlite";
import { statementCache } from "./statements";
import type { Db } from "./open";
import { report, sqliteTransactor, type Transactor } from "../transactor";
import { HOOK_STATUSES, type HookStatus } from "../../hooks/status";
import { PREVIEW_BYTES } from "../../hooks/preview";

/**
 * The webhook service's storage. Plain SQL through prepared statements, so the same contract
 * can be met by another backend later. Methods marked "in transaction" must be called inside
 * `store.transaction`; none of them throws on a missing row, they return undefined or false.
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

/** `eventType`: only hooks of that event type (exact), or of types starting with it when it ends with "*". */
export type ListQuery = { channel?: string; status?: HookStatus; eventType?: string; after?: string; limit: number };

/**
 * The webhook service's storage contract, met by SQLite (below) and PostgreSQL (db/pg). Every
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

type HookRecord = Omit<RawHook, "headers" | "finalizedAt" | "createdAt" | "eventType" | "sourceId"> & {
  source_id: string | null;
  headers: string;
  created_at: number;
  finalized_at: number | null;
  event_type: string;
};
type ChannelRecord = { name: string; paused: number; guards: string; pending: number; handled: number; failed: number; discarded: number };

const HOOK_COLUMNS = "id, channel, status, method, query, headers, body, ip, created_at, finalized_at, event_type, source_id";
const SUMMARY_COLUMNS = `id, channel, status, method, query, headers, length(body) AS size, substr(body, 1, ${PREVIEW_BYTES}) AS head, ip, created_at, finalized_at, event_type, source_id`;

/**
 * The SQL condition of ListQuery's `eventType` ("" when none): equal, or a prefix when it ends
 * with "*" (counted in characters, as SQL's substr and PostgreSQL's left do).
 */
export function eventTypeCondition(eventType: string | undefined, param: () => string): { sql: string; args: (string | number)[] } {
  if (eventType === undefined) return { sql: "", args: [] };
  if (!eventType.endsWith("*")) return { sql: ` AND event_type = ${param()}`, args: [eventType] };
  const prefix = eventType.slice(0, -1);
  const n = param();
  return { sql: ` AND substr(event_type, 1, ${n}) = ${param()}`, args: [[...prefix].length, prefix] };
}

/**
 * Keys of one channel's hooks, newest ("desc") or oldest ("asc") first, strictly beyond `after`, at
 * most `limit`. Hooks carry one secondary index, (channel, status, id), which keeps catching cheap;
 * a channel's hooks of any status are the merge of one index range per status (four seeks), and
 * each range says the status of what it holds.
 */
function channelKeys(
  q: (text: string) => Statement,
  channel: string,
  order: "asc" | "desc",
  limit: number,
  after?: string,
  statuses: readonly HookStatus[] = HOOK_STATUSES,
  eventType?: string,
): HookKey[] {
  const keys: HookKey[] = [];
  const type = eventTypeCondition(eventType, () => "?");
  const text = `SELECT id FROM hooks WHERE channel = ? AND status = ?${after === undefined ? "" : ` AND id ${order === "desc" ? "<" : ">"} ?`}${type.sql}
    ORDER BY id ${order} LIMIT ?`;
  for (const status of statuses) {
    const args = [channel, status, ...(after === undefined ? [] : [after]), ...type.args, limit];
    for (const r of q(text).values(...args)) keys.push({ id: r[0] as string, channel, status });
  }
  return firstOf(keys, order, limit);
}

/** The first `limit` of `keys` in the given order of their ids. */
function firstOf(keys: HookKey[], order: "asc" | "desc", limit: number): HookKey[] {
  keys.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (order === "desc") keys.reverse();
  return keys.length > limit ? keys.slice(0, limit) : keys;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** How many hooks a channel holds, from its counters. */
export function heldBy(stats: Record<HookStatus, number>): number {
  return stats.pending + stats.handled + stats.failed + stats.discarded;
}

const EMPTY = new Uint8Array(0);

function toRaw(r: HookRecord): RawHook {
  return {
    id: r.id,
    channel: r.channel,
    status: r.status,
    method: r.method,
    query: r.query,
    headers: JSON.parse(r.headers),
    body: r.body,
    ip: r.ip,
    createdAt: r.created_at,
    finalizedAt: r.finalized_at,
    eventType: r.event_type,
    sourceId: r.source_id,
  };
}

function toChannel(r: ChannelRecord): ChannelRow {
  return {
    name: r.name,
    paused: r.paused === 1,
    guards: JSON.parse(r.guards),
    stats: { pending: r.pending, handled: r.handled, failed: r.failed, discarded: r.discarded },
  };
}

/** The SQLite side; `unsynced` commits caught batches without waiting for the disk (see wal-sync). */
export function createHookStore(db: Db, opts: { unsynced?: boolean } = {}): HookStore {
  const sql: Database = db.$client;
  const q = statementCache(sql);
  const transactor = sqliteTransactor(sql);

  const insertHook = sql.prepare(
    `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, event_type)
     VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?)`,
  );
  const ensureChannel = sql.prepare(`INSERT INTO channels (name, guards, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING`);

  /**
   * Ids of a page, newest first. A channel and a status, or neither, is one index range (the
   * (channel, status, id) index, or the primary key); a channel alone merges its four status
   * ranges; a status alone merges the ranges of the channels whose counters say they hold hooks
   * of that status.
   */
  function listHookIds({ channel, status, eventType, after, limit }: ListQuery): string[] {
    if ((channel === undefined) === (status === undefined)) {
      const where: string[] = ["1 = 1"];
      const args: (string | number)[] = [];
      if (channel !== undefined) where.push("channel = ?"), args.push(channel);
      if (status !== undefined) where.push("status = ?"), args.push(status);
      if (after !== undefined) where.push("id < ?"), args.push(after);
      const type = eventTypeCondition(eventType, () => "?");
      const text = `SELECT id FROM hooks WHERE ${where.join(" AND ")}${type.sql} ORDER BY id DESC LIMIT ?`;
      return (q(text).values(...args, ...type.args, limit) as [string][]).map(([id]) => id);
    }
    let keys: HookKey[];
    if (channel !== undefined) keys = channelKeys(q, channel, "desc", limit, after, HOOK_STATUSES, eventType);
    else {
      const names = q(`SELECT name FROM channels WHERE ${status} > 0`).values() as [string][];
      keys = firstOf(
        names.flatMap(([name]) => channelKeys(q, name, "desc", limit, after, [status!], eventType)),
        "desc",
        limit,
      );
    }
    return keys.map((k) => k.id);
  }

  return {
    dialect: "sqlite",
    transaction: transactor.transaction,
    caughtTransaction: opts.unsynced ? transactor.transactionUnsynced : transactor.transaction,

    /** In transaction: stores caught hooks and counts them as pending, once per channel. */
    async insertHooks(rows: readonly NewHook[], guardsOfNewChannel: (channel: string) => string[]): Promise<void> {
      const perChannel = new Map<string, number>();
      for (const h of rows) {
        insertHook.run(h.id, h.channel, h.method, h.query, h.headers, h.body, h.ip, h.createdAt, h.eventType);
        perChannel.set(h.channel, (perChannel.get(h.channel) ?? 0) + 1);
      }
      for (const [channel, n] of perChannel) {
        ensureChannel.run(channel, JSON.stringify(guardsOfNewChannel(channel)), rows[0]!.createdAt);
        q("UPDATE channels SET pending = pending + ? WHERE name = ?").run(n, channel);
      }
    },

    async getHook(id: string): Promise<RawHook | undefined> {
      const r = q(`SELECT ${HOOK_COLUMNS} FROM hooks WHERE id = ?`).get(id) as HookRecord | null;
      return r ? toRaw(r) : undefined;
    },

    async getHooks(ids: readonly string[]): Promise<RawHook[]> {
      if (ids.length === 0) return [];
      return (q(`SELECT ${HOOK_COLUMNS} FROM hooks WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as HookRecord[]).map(toRaw);
    },

    async getHookSummary(id: string): Promise<HookSummaryRow | undefined> {
      const r = q(`SELECT ${SUMMARY_COLUMNS} FROM hooks WHERE id = ?`).get(id) as (Omit<HookRecord, "body"> & { size: number; head: Uint8Array | null }) | null;
      if (!r) return undefined;
      const { body: _, ...summary } = toRaw({ ...r, body: EMPTY });
      // substr of an empty blob is NULL.
      return { ...summary, size: r.size, head: r.head ?? EMPTY };
    },

    listHookIds: async (query: ListQuery): Promise<string[]> => listHookIds(query),

    /** The hooks of a page, newest first (listHookIds, then the rows). */
    async listHooks(query: ListQuery): Promise<RawHook[]> {
      const ids = listHookIds(query);
      if (ids.length === 0) return [];
      const rows = q(`SELECT ${HOOK_COLUMNS} FROM hooks WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id DESC`).all(
        JSON.stringify(ids),
      ) as HookRecord[];
      return rows.map(toRaw);
    },

    /** Events of the given hooks, oldest first per hook. */
    async eventsOf(ids: readonly string[]): Promise<Map<string, EventRow[]>> {
      const out = new Map<string, EventRow[]>(ids.map((id) => [id, []]));
      if (ids.length === 0) return out;
      const rows = q(
        `SELECT hook_id AS hookId, kind, actor, message, created_at AS createdAt FROM events
         WHERE hook_id IN (${ids.map(() => "?").join(",")}) ORDER BY id`,
      ).all(...ids) as EventRow[];
      for (const e of rows) out.get(e.hookId)?.push(e);
      return out;
    },

    async setStatus(hook: RawHook, to: HookStatus, finalizedAt: number | null): Promise<boolean> {
      if (q("UPDATE hooks SET status = ?, finalized_at = ? WHERE id = ? AND status = ?").run(to, finalizedAt, hook.id, hook.status).changes === 0) return false;
      q(`UPDATE channels SET ${hook.status} = ${hook.status} - 1, ${to} = ${to} + 1 WHERE name = ?`).run(hook.channel);
      report(sql, { kind: "hook", id: hook.id, channel: hook.channel, status: to });
      return true;
    },

    /** In transaction. */
    async addEvent(e: EventRow): Promise<void> {
      q("INSERT INTO events (hook_id, kind, actor, message, created_at) VALUES (?, ?, ?, ?, ?)").run(e.hookId, e.kind, e.actor, e.message, e.createdAt);
    },

    /** Keys of a channel's hooks, oldest first, at most `limit`. */
    async oldestKeys(channel: string, limit: number): Promise<HookKey[]> {
      return channelKeys(q, channel, "asc", limit);
    },

    /** Keys of the oldest hooks of all channels with ids below `id`, oldest first (the primary key's range). */
    async keysBelow(id: string, limit: number): Promise<HookKey[]> {
      return q(`SELECT id, channel, status FROM hooks WHERE id < ? ORDER BY id LIMIT ?`).all(id, limit) as HookKey[];
    },

    /** Channels holding more than `max` hooks, with how many are over, from the counters. */
    async overfull(max: number): Promise<{ name: string; over: number }[]> {
      return q(`SELECT name, pending + handled + failed + discarded - ? AS over FROM channels WHERE pending + handled + failed + discarded > ?`).all(
        max,
        max,
      ) as { name: string; over: number }[];
    },

    /** The id of a channel's newest hook. */
    async newestId(channel: string): Promise<string | undefined> {
      return channelKeys(q, channel, "desc", 1)[0]?.id;
    },

    /**
     * In transaction: deletes these hooks (their events and attempts go by foreign key cascade) and
     * takes them off their channels' counters, once per channel and status. Read the keys inside the
     * same transaction, so that each hook is counted by its current status.
     */
    async deleteHooks(keys: readonly HookKey[]): Promise<number> {
      const perStatus = new Map<string, number>();
      let deleted = 0;
      for (const k of keys) {
        // Counted by the status each hook has now, as on PostgreSQL; a hook already gone is not counted.
        const gone = q("DELETE FROM hooks WHERE id = ? RETURNING channel, status").get(k.id) as { channel: string; status: HookStatus } | null;
        if (!gone) continue;
        deleted++;
        const key = `${gone.channel}\n${gone.status}`;
        perStatus.set(key, (perStatus.get(key) ?? 0) + 1);
        report(sql, { kind: "hook", id: k.id, channel: gone.channel, deleted: true });
      }
      for (const [key, n] of perStatus) {
        const [channel, status] = key.split("\n") as [string, HookStatus];
        q(`UPDATE channels SET ${status} = ${status} - ? WHERE name = ?`).run(n, channel);
      }
      return deleted;
    },

    /** In transaction: deletes the hook and its events; false when it did not exist. */
    async deleteHook(hook: RawHook): Promise<boolean> {
      const gone = q("DELETE FROM hooks WHERE id = ? RETURNING status").get(hook.id) as { status: HookStatus } | null;
      if (!gone) return false;
      q(`UPDATE channels SET ${gone.status} = ${gone.status} - 1 WHERE name = ?`).run(hook.channel);
      report(sql, { kind: "hook", id: hook.id, channel: hook.channel, deleted: true });
      return true;
    },

    async listChannels(): Promise<ChannelRow[]> {
      return (q("SELECT * FROM channels ORDER BY name").all() as ChannelRecord[]).map(toChannel);
    },

    async channelsOldestFirst(): Promise<ChannelRow[]> {
      return (q("SELECT * FROM channels ORDER BY created_at, name").all() as ChannelRecord[]).map(toChannel);
    },

    async storageBytes(): Promise<{ database: number; wal: number }> {
      if (db.$client.filename === ":memory:" || db.$client.filename === "") {
        const n = (text: string) => Number((q(text).values()[0] ?? [0])[0]);
        return { database: n("PRAGMA page_count") * n("PRAGMA page_size"), wal: 0 };
      }
      return { database: fileSize(db.$client.filename), wal: fileSize(`${db.$client.filename}-wal`) };
    },

    async getChannel(name: string): Promise<ChannelRow | undefined> {
      const r = q("SELECT * FROM channels WHERE name = ?").get(name) as ChannelRecord | null;
      return r ? toChannel(r) : undefined;
    },

    /** Creates the channel if absent, then sets its guards (configured channels, at start-up). */
    async upsertChannel(name: string, guards: string[], now: number): Promise<boolean> {
      ensureChannel.run(name, JSON.stringify(guards), now);
      if (q("UPDATE channels SET guards = ? WHERE name = ? AND deleting_since IS NULL").run(JSON.stringify(guards), name).changes === 0) return false;
      report(sql, { kind: "channel", name });
      return true;
    },

    async setPaused(name: string, paused: boolean): Promise<boolean> {
      if (q("UPDATE channels SET paused = ? WHERE name = ? AND (? = 0 OR deleting_since IS NULL)").run(paused ? 1 : 0, name, paused ? 1 : 0).changes === 0)
        return false;
      report(sql, { kind: "channel", name });
      return true;
    },

    async beginDeletion(name: string, at: number, staleBefore: number): Promise<"begun" | "busy" | "missing"> {
      const marked = q("UPDATE channels SET deleting_since = ? WHERE name = ? AND (deleting_since IS NULL OR deleting_since < ?)").run(at, name, staleBefore);
      if (marked.changes > 0) return "begun";
      return q("SELECT 1 FROM channels WHERE name = ?").get(name) ? "busy" : "missing";
    },

    async endDeletion(name: string): Promise<void> {
      q("UPDATE channels SET deleting_since = NULL WHERE name = ?").run(name);
    },

    /** In transaction: removes the channel, its hooks and their events; false when absent. */
    async deleteChannel(name: string): Promise<boolean> {
      q("DELETE FROM events WHERE hook_id IN (SELECT id FROM hooks WHERE channel = ?)").run(name);
      q("DELETE FROM hooks WHERE channel = ?").run(name);
      if (q("DELETE FROM channels WHERE name = ?").run(name).changes === 0) return false;
      report(sql, { kind: "channel", name });
      return true;
    },
  };
}
