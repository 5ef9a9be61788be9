import type { Database, Statement } from "bun:sqlite";
import { statementCache } from "../db/statements";
import type { Db } from "../db/open";

/**
 * The webhook service's storage. Plain SQL through prepared statements, so the same contract
 * can be met by another backend later. Methods marked "in transaction" must be called inside
 * `store.transaction`; none of them throws on a missing row, they return undefined or false.
 */
export type HookStatus = "pending" | "handled" | "failed" | "discarded";

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
};

/** A hook as the writer receives it; `headers` is already serialised JSON. */
export type NewHook = Omit<RawHook, "headers" | "status" | "finalizedAt"> & {
  headers: string;
  /** The provider's delivery id, on a deduplicating channel (hooks/dedup.ts records it with the hook). */
  deliveryId?: string;
};

export type ChannelRow = {
  name: string;
  paused: boolean;
  guards: string[];
  stats: Record<HookStatus, number>;
};

export type EventRow = { hookId: string; kind: string; actor: string; message: string; createdAt: number };

/** What deleting a hook needs to know: its channel and status keep the counters right. */
export type HookKey = { id: string; channel: string; status: HookStatus };

export type ListQuery = { channel?: string; status?: HookStatus; after?: string; limit: number };

type HookRecord = Omit<RawHook, "headers" | "finalizedAt" | "createdAt"> & {
  headers: string; created_at: number; finalized_at: number | null;
};
type ChannelRecord = { name: string; paused: number; guards: string; pending: number; handled: number; failed: number; discarded: number };

const HOOK_COLUMNS = "id, channel, status, method, query, headers, body, ip, created_at, finalized_at";
export const HOOK_STATUSES: readonly HookStatus[] = ["pending", "handled", "failed", "discarded"];

/**
 * Keys of one channel's hooks, newest ("desc") or oldest ("asc") first, strictly beyond `after`, at
 * most `limit`. Hooks carry one secondary index, (channel, status, id), which keeps catching cheap;
 * a channel's hooks of any status are the merge of one index range per status (four seeks), and
 * each range says the status of what it holds.
 */
function channelKeys(
  q: (text: string) => Statement, channel: string, order: "asc" | "desc", limit: number, after?: string,
  statuses: readonly HookStatus[] = HOOK_STATUSES,
): HookKey[] {
  const keys: HookKey[] = [];
  const text = `SELECT id FROM hooks WHERE channel = ? AND status = ?${after === undefined ? "" : ` AND id ${order === "desc" ? "<" : ">"} ?`}
    ORDER BY id ${order} LIMIT ?`;
  for (const status of statuses) {
    const args = after === undefined ? [channel, status, limit] : [channel, status, after, limit];
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

/** How many hooks a channel holds, from its counters. */
export function heldBy(stats: Record<HookStatus, number>): number {
  return stats.pending + stats.handled + stats.failed + stats.discarded;
}

function toRaw(r: HookRecord): RawHook {
  return {
    id: r.id, channel: r.channel, status: r.status, method: r.method, query: r.query,
    headers: JSON.parse(r.headers), body: r.body, ip: r.ip, createdAt: r.created_at, finalizedAt: r.finalized_at,
  };
}

function toChannel(r: ChannelRecord): ChannelRow {
  return {
    name: r.name, paused: r.paused === 1, guards: JSON.parse(r.guards),
    stats: { pending: r.pending, handled: r.handled, failed: r.failed, discarded: r.discarded },
  };
}

export function createHookStore(db: Db) {
  const sql: Database = db.$client;
  const q = statementCache(sql);

  const insertHook = sql.prepare(
    `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at)
     VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?)`,
  );
  const ensureChannel = sql.prepare(`INSERT INTO channels (name, guards, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING`);

  /**
   * Ids of a page, newest first. A channel and a status, or neither, is one index range (the
   * (channel, status, id) index, or the primary key); a channel alone merges its four status
   * ranges; a status alone merges the ranges of the channels whose counters say they hold hooks
   * of that status.
   */
  function listHookIds({ channel, status, after, limit }: ListQuery): string[] {
    if ((channel === undefined) === (status === undefined)) {
      const where: string[] = [];
      const args: (string | number)[] = [];
      if (channel !== undefined) where.push("channel = ?"), args.push(channel);
      if (status !== undefined) where.push("status = ?"), args.push(status);
      if (after !== undefined) where.push("id < ?"), args.push(after);
      const text = `SELECT id FROM hooks ${where.length ? "WHERE " + where.join(" AND ") : ""} ORDER BY id DESC LIMIT ?`;
      return (q(text).values(...args, limit) as [string][]).map(([id]) => id);
    }
    let keys: HookKey[];
    if (channel !== undefined) keys = channelKeys(q, channel, "desc", limit, after);
    else {
      const names = q(`SELECT name FROM channels WHERE ${status} > 0`).values() as [string][];
      keys = firstOf(names.flatMap(([name]) => channelKeys(q, name, "desc", limit, after, [status!])), "desc", limit);
    }
    return keys.map((k) => k.id);
  }

  return {
    /** Runs fn in one IMMEDIATE transaction; rolls back if it throws. */
    transaction<T>(fn: () => T): T {
      return sql.transaction(fn).immediate();
    },

    /**
     * Like transaction, on a connection with `synchronous = FULL`, but this commit does not wait
     * for the disk: the caller syncs the WAL itself (db/wal-sync.ts) before it reports success.
     * Checkpoints stay safe: SQLite syncs the WAL before each one at either level.
     */
    transactionUnsynced<T>(fn: () => T): T {
      sql.run("PRAGMA synchronous = NORMAL");
      try {
        return sql.transaction(fn).immediate();
      } finally {
        sql.run("PRAGMA synchronous = FULL");
      }
    },

    /** In transaction: stores caught hooks and counts them as pending, once per channel. */
    insertHooks(rows: readonly NewHook[], guardsOfNewChannel: (channel: string) => string[]): void {
      const perChannel = new Map<string, number>();
      for (const h of rows) {
        insertHook.run(h.id, h.channel, h.method, h.query, h.headers, h.body, h.ip, h.createdAt);
        perChannel.set(h.channel, (perChannel.get(h.channel) ?? 0) + 1);
      }
      for (const [channel, n] of perChannel) {
        ensureChannel.run(channel, JSON.stringify(guardsOfNewChannel(channel)), rows[0]!.createdAt);
        q("UPDATE channels SET pending = pending + ? WHERE name = ?").run(n, channel);
      }
    },

    getHook(id: string): RawHook | undefined {
      const r = q(`SELECT ${HOOK_COLUMNS} FROM hooks WHERE id = ?`).get(id) as HookRecord | null;
      return r ? toRaw(r) : undefined;
    },

    listHookIds,

    /** The hooks of a page, newest first (listHookIds, then the rows). */
    listHooks(query: ListQuery): RawHook[] {
      const ids = listHookIds(query);
      if (ids.length === 0) return [];
      const rows = q(`SELECT ${HOOK_COLUMNS} FROM hooks WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id DESC`).all(
        JSON.stringify(ids),
      ) as HookRecord[];
      return rows.map(toRaw);
    },

    /** Events of the given hooks, oldest first per hook. */
    eventsOf(ids: readonly string[]): Map<string, EventRow[]> {
      const out = new Map<string, EventRow[]>(ids.map((id) => [id, []]));
      if (ids.length === 0) return out;
      const rows = q(
        `SELECT hook_id AS hookId, kind, actor, message, created_at AS createdAt FROM events
         WHERE hook_id IN (${ids.map(() => "?").join(",")}) ORDER BY id`,
      ).all(...ids) as EventRow[];
      for (const e of rows) out.get(e.hookId)?.push(e);
      return out;
    },

    /** In transaction: moves a hook between statuses and keeps its channel's counters right. */
    setStatus(hook: RawHook, to: HookStatus, finalizedAt: number | null): void {
      q("UPDATE hooks SET status = ?, finalized_at = ? WHERE id = ?").run(to, finalizedAt, hook.id);
      q(`UPDATE channels SET ${hook.status} = ${hook.status} - 1, ${to} = ${to} + 1 WHERE name = ?`).run(hook.channel);
    },

    /** In transaction. */
    addEvent(e: EventRow): void {
      q("INSERT INTO events (hook_id, kind, actor, message, created_at) VALUES (?, ?, ?, ?, ?)").run(
        e.hookId, e.kind, e.actor, e.message, e.createdAt,
      );
    },

    /** Keys of a channel's hooks, oldest first, at most `limit`. */
    oldestKeys(channel: string, limit: number): HookKey[] {
      return channelKeys(q, channel, "asc", limit);
    },

    /** Keys of the oldest hooks of all channels with ids below `id`, oldest first (the primary key's range). */
    keysBelow(id: string, limit: number): HookKey[] {
      return q(`SELECT id, channel, status FROM hooks WHERE id < ? ORDER BY id LIMIT ?`).all(id, limit) as HookKey[];
    },

    /** Channels holding more than `max` hooks, with how many are over, from the counters. */
    overfull(max: number): { name: string; over: number }[] {
      return q(
        `SELECT name, pending + handled + failed + discarded - ? AS over FROM channels WHERE pending + handled + failed + discarded > ?`,
      ).all(max, max) as { name: string; over: number }[];
    },

    /** The id of a channel's newest hook. */
    newestId(channel: string): string | undefined {
      return channelKeys(q, channel, "desc", 1)[0]?.id;
    },

    /**
     * In transaction: deletes these hooks (their events and attempts go by foreign key cascade) and
     * takes them off their channels' counters, once per channel and status. Read the keys inside the
     * same transaction, so that each hook is counted by its current status.
     */
    deleteHooks(keys: readonly HookKey[]): number {
      const perStatus = new Map<string, number>();
      for (const k of keys) {
        q("DELETE FROM hooks WHERE id = ?").run(k.id);
        const key = `${k.channel}\n${k.status}`;
        perStatus.set(key, (perStatus.get(key) ?? 0) + 1);
      }
      for (const [key, n] of perStatus) {
        const [channel, status] = key.split("\n") as [string, HookStatus];
        q(`UPDATE channels SET ${status} = ${status} - ? WHERE name = ?`).run(n, channel);
      }
      return keys.length;
    },

    /** In transaction: deletes the hook and its events; false when it did not exist. */
    deleteHook(hook: RawHook): void {
      q("DELETE FROM hooks WHERE id = ?").run(hook.id);
      q(`UPDATE channels SET ${hook.status} = ${hook.status} - 1 WHERE name = ?`).run(hook.channel);
    },

    listChannels(): ChannelRow[] {
      return (q("SELECT * FROM channels ORDER BY name").all() as ChannelRecord[]).map(toChannel);
    },

    getChannel(name: string): ChannelRow | undefined {
      const r = q("SELECT * FROM channels WHERE name = ?").get(name) as ChannelRecord | null;
      return r ? toChannel(r) : undefined;
    },

    /** Creates the channel if absent, then sets its guards (configured channels, at start-up). */
    upsertChannel(name: string, guards: string[], now: number): void {
      ensureChannel.run(name, JSON.stringify(guards), now);
      q("UPDATE channels SET guards = ? WHERE name = ?").run(JSON.stringify(guards), name);
    },

    setPaused(name: string, paused: boolean): boolean {
      return q("UPDATE channels SET paused = ? WHERE name = ?").run(paused ? 1 : 0, name).changes > 0;
    },

    /** In transaction: removes the channel, its hooks and their events; false when absent. */
    deleteChannel(name: string): boolean {
      q("DELETE FROM events WHERE hook_id IN (SELECT id FROM hooks WHERE channel = ?)").run(name);
      q("DELETE FROM hooks WHERE channel = ?").run(name);
      return q("DELETE FROM channels WHERE name = ?").run(name).changes > 0;
    },
  };
}

export type HookStore = ReturnType<typeof createHookStore>;
