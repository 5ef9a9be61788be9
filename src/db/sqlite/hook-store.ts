import { statSync } from "node:fs";
import type { Database } from "bun:sqlite";
import { statementCache } from "./statements";
import type { Db } from "./open";
import { sqliteTransactor } from "../transactor";
import { sqliteDialect } from "../stores/dialect";
import { createHookStore as sharedHookStore, type Deltas } from "../stores/hooks";
import { channelKeys, hookIds } from "./hook-ids";
import type { ChannelRow, HookKey, HookStore, ListQuery, NewHook } from "../../hooks/store";

type ChannelRecord = { name: string; paused: number; guards: string; pending: number; handled: number; failed: number; discarded: number };

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

    listHookIds: async (query: ListQuery): Promise<string[]> => hookIds(q, query),

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
