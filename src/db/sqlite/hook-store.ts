import { statSync } from "node:fs";
import type { Database, Statement } from "bun:sqlite";
import { statementCache } from "./statements";
import type { Db } from "./open";
import { sqliteTransactor } from "../transactor";
import { sqliteDialect } from "../stores/dialect";
import { createHookStore as sharedHookStore, type Deltas } from "../stores/hooks";
import { eventTypeCondition } from "../event-type";
import { HOOK_STATUSES, type ChannelRow, type HookKey, type HookStatus, type HookStore, type ListQuery, type NewHook } from "../../hooks/store";

type ChannelRecord = { name: string; paused: number; guards: string; pending: number; handled: number; failed: number; discarded: number };

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

function toChannel(r: ChannelRecord): ChannelRow {
  return {
    name: r.name,
    paused: r.paused === 1,
    guards: JSON.parse(r.guards),
    stats: { pending: r.pending, handled: r.handled, failed: r.failed, discarded: r.discarded },
  };
}

/**
 * HookStore's SQLite side: its own parts (db/stores/hooks.ts says which, and why) under the
 * statements written once for both backends. `unsynced` commits caught batches without waiting for
 * the disk (see wal-sync).
 */
export function createHookStore(db: Db, opts: { unsynced?: boolean } = {}): HookStore {
  const sql: Database = db.$client;
  const q = statementCache(sql);
  const transactor = sqliteTransactor(sql);

  const insertHook = sql.prepare(
    `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, event_type, verified)
     VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const ensureChannel = sql.prepare(`INSERT INTO channels (name, guards, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING`);
  // The counters are columns of the channel's row: transactions take turns on one connection.
  const addCounts = sql.prepare(
    "UPDATE channels SET pending = pending + ?, handled = handled + ?, failed = failed + ?, discarded = discarded + ? WHERE name = ?",
  );

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

  return sharedHookStore(sqliteDialect(sql), {
    dialect: "sqlite",
    transaction: transactor.transaction,
    caughtTransaction: opts.unsynced ? transactor.transactionUnsynced : transactor.transaction,

    /** In transaction: stores caught hooks and counts them as pending, once per channel. */
    async insertHooks(rows: readonly NewHook[], guardsOfNewChannel: (channel: string) => string[]): Promise<void> {
      const perChannel = new Map<string, number>();
      for (const h of rows) {
        insertHook.run(h.id, h.channel, h.method, h.query, h.headers, h.body, h.ip, h.createdAt, h.eventType, h.verified == null ? null : h.verified ? 1 : 0);
        perChannel.set(h.channel, (perChannel.get(h.channel) ?? 0) + 1);
      }
      for (const [channel, n] of perChannel) {
        ensureChannel.run(channel, JSON.stringify(guardsOfNewChannel(channel)), rows[0]!.createdAt);
        q("UPDATE channels SET pending = pending + ? WHERE name = ?").run(n, channel);
      }
    },

    async count(deltas: Deltas): Promise<void> {
      for (const [channel, v] of deltas) addCounts.run(v.pending, v.handled, v.failed, v.discarded, channel);
    },

    listHookIds: async (query: ListQuery): Promise<string[]> => listHookIds(query),

    /** Keys of a channel's hooks, oldest first, at most `limit`. */
    async oldestKeys(channel: string, limit: number): Promise<HookKey[]> {
      return channelKeys(q, channel, "asc", limit);
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

    /** The events go first, as one range of their index, rather than by a cascade per hook. */
    async dropHooksOf(name: string): Promise<void> {
      q("DELETE FROM events WHERE hook_id IN (SELECT id FROM hooks WHERE channel = ?)").run(name);
      q("DELETE FROM hooks WHERE channel = ?").run(name);
    },
  });
}
