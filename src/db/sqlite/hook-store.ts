import { statSync } from "node:fs";
import type { Database, Statement } from "bun:sqlite";
import { statementCache } from "./statements";
import type { Db } from "./open";
import { report, sqliteTransactor } from "../transactor";
import { eventTypeCondition } from "../event-type";
import { PREVIEW_BYTES } from "../../hooks/preview";
import {
  HOOK_STATUSES,
  type ChannelRow,
  type EventRow,
  type HookKey,
  type HookStatus,
  type HookStore,
  type HookSummaryRow,
  type ListQuery,
  type NewHook,
  type RawHook,
} from "../../hooks/store";

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

/** HookStore's SQLite side (hooks/store.ts); `unsynced` commits caught batches without waiting for the disk (see wal-sync). */
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

    async retractCaught(ids: readonly string[]): Promise<void> {
      for (const id of ids) {
        const gone = q("DELETE FROM hooks WHERE id = ? RETURNING channel, status").get(id) as { channel: string; status: HookStatus } | null;
        if (gone) q(`UPDATE channels SET ${gone.status} = ${gone.status} - 1 WHERE name = ?`).run(gone.channel);
      }
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
