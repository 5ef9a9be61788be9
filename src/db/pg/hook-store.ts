import { eventTypeCondition } from "../event-type";
import { HOOK_STATUSES, type ChannelRow, type HookKey, type HookStatus, type HookStore, type ListQuery, type NewHook } from "../../hooks/store";
import { pgDialect } from "../stores/dialect";
import { addDelta, createHookStore as sharedHookStore, type Deltas } from "../stores/hooks";
import type { PgTransactor } from "./transactor";

/**
 * PostgreSQL's side of HookStore. Channel counters are striped: each write adds its deltas to one
 * of COUNTER_SLOTS rows of `channel_counts` for the channel (chosen at random per batch), so that
 * instances catching into one channel do not queue on one hot row; reads sum the slots.
 */
export const COUNTER_SLOTS = 8;
/** Bytes of bodies per statement of a caught batch (offsets into them are int4). */
const PART_BYTES = 64 * 1024 * 1024;
/** A caught batch: new channels, the batch's counter slot per channel, the hooks (see insertHooks). */
const INSERT_BATCH = `WITH new_channels AS (
    INSERT INTO channels (name, guards, created_at) SELECT n, g, $3 FROM unnest($1::text[], $2::text[]) AS c(n, g)
    ON CONFLICT (name) DO NOTHING
  ), counted AS (
    INSERT INTO channel_counts (channel, slot, pending) SELECT n, $4, k FROM unnest($1::text[], $5::bigint[]) AS c(n, k)
    ON CONFLICT (channel, slot) DO UPDATE SET pending = channel_counts.pending + excluded.pending
  )
  INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, event_type, verified)
  SELECT i, c, 'pending', m, q, h, substring($11::bytea from s for l), ip, t, e, v
  FROM unnest($6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $12::int[], $13::int[], $14::text[], $15::bigint[], $16::text[], $17::bool[])
    AS u(i, c, m, q, h, s, l, ip, t, e, v)`;

type ChannelRecord = { name: string; paused: boolean; guards: string; pending: number; handled: number; failed: number; discarded: number };

/** Every channel with its counters summed over the slots (float8: the client reads int8 as text). */
const CHANNELS = `SELECT c.name, c.paused, c.guards, c.created_at,
    COALESCE(s.pending, 0)::float8 AS pending, COALESCE(s.handled, 0)::float8 AS handled,
    COALESCE(s.failed, 0)::float8 AS failed, COALESCE(s.discarded, 0)::float8 AS discarded
  FROM channels c LEFT JOIN (
    SELECT channel, SUM(pending) AS pending, SUM(handled) AS handled, SUM(failed) AS failed, SUM(discarded) AS discarded
    FROM channel_counts GROUP BY channel
  ) s ON s.channel = c.name`;

function toChannel(r: ChannelRecord): ChannelRow {
  return {
    name: r.name,
    paused: r.paused,
    guards: JSON.parse(r.guards),
    stats: { pending: r.pending, handled: r.handled, failed: r.failed, discarded: r.discarded },
  };
}

/**
 * HookStore's PostgreSQL side: its own parts (db/stores/hooks.ts says which, and why) under the
 * statements written once for both backends.
 */
export function createPgHookStore(t: PgTransactor): HookStore {
  const x = () => t.exec();

  /** Deltas waiting for the commit of each open transaction. */
  const waiting = new WeakMap<object, Deltas>();

  /**
   * Counts the deltas. Inside a transaction they are summed and written once, just before its
   * commit, to one slot per channel in name order: a transaction touches each counter row once, and
   * two transactions lock counter rows in the same order (no deadlock between instances).
   */
  async function count(d: Deltas): Promise<void> {
    const open = t.current();
    if (!open?.beforeCommit) return write(d);
    let sum = waiting.get(open);
    if (!sum) {
      waiting.set(open, (sum = new Map()));
      open.beforeCommit.push(() => write(sum!));
    }
    for (const [channel, v] of d) for (const status of HOOK_STATUSES) if (v[status]) addDelta(sum, channel, status, v[status]);
  }

  async function write(d: Deltas): Promise<void> {
    const slot = Math.floor(Math.random() * COUNTER_SLOTS);
    for (const channel of [...d.keys()].sort()) {
      const v = d.get(channel)!;
      if (!v.pending && !v.handled && !v.failed && !v.discarded) continue;
      await x().unsafe(
        `INSERT INTO channel_counts (channel, slot, pending, handled, failed, discarded) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (channel, slot) DO UPDATE SET pending = channel_counts.pending + excluded.pending,
           handled = channel_counts.handled + excluded.handled, failed = channel_counts.failed + excluded.failed,
           discarded = channel_counts.discarded + excluded.discarded`,
        [channel, slot, v.pending, v.handled, v.failed, v.discarded],
      );
    }
  }

  /**
   * One statement: the hooks, their channels when new, and one counter slot per channel in channel
   * order. Its text never changes (columns travel as arrays through unnest), so each connection
   * prepares it once. The bodies travel as one bytea cut by offsets: Bun sends a bytea[] as text,
   * which took 2.5 times longer for 1 KiB bodies.
   */
  async function insertPart(rows: readonly NewHook[], guardsOfNewChannel: (channel: string) => string[]): Promise<void> {
    const perChannel = new Map<string, number>();
    for (const h of rows) perChannel.set(h.channel, (perChannel.get(h.channel) ?? 0) + 1);
    const names = [...perChannel.keys()].sort();
    const column = <K extends keyof NewHook>(k: K) => rows.map((h) => h[k]);
    const starts: number[] = [];
    let at = 1;
    for (const h of rows) starts.push(at), (at += h.body.byteLength);
    await t.write(INSERT_BATCH, [
      names,
      names.map((n) => JSON.stringify(guardsOfNewChannel(n))),
      rows[0]!.createdAt,
      Math.floor(Math.random() * COUNTER_SLOTS),
      names.map((n) => perChannel.get(n)!),
      column("id"),
      column("channel"),
      column("method"),
      column("query"),
      column("headers"),
      Buffer.concat(rows.map((h) => h.body)),
      starts,
      rows.map((h) => h.body.byteLength),
      column("ip"),
      column("createdAt"),
      column("eventType"),
      rows.map((h) => h.verified ?? null),
    ]);
  }

  /** Keys of one channel's hooks beyond `after`, one index range per status merged in one statement. */
  async function channelKeys(
    channel: string,
    order: "asc" | "desc",
    limit: number,
    after?: string,
    statuses: readonly HookStatus[] = HOOK_STATUSES,
    eventType?: string,
  ): Promise<HookKey[]> {
    const cmp = order === "desc" ? "<" : ">";
    const args: unknown[] = [channel, limit];
    if (after !== undefined) args.push(after);
    let n = args.length;
    const type = eventTypeCondition(eventType, () => `$${++n}`);
    args.push(...type.args);
    const parts = statuses.map((status) => {
      args.push(status);
      return `(SELECT id, channel, status FROM hooks WHERE channel = $1 AND status = $${args.length}${after === undefined ? "" : ` AND id ${cmp} $3`}${type.sql} ORDER BY id ${order} LIMIT $2)`;
    });
    const rows = await x().unsafe(`SELECT * FROM (${parts.join(" UNION ALL ")}) k ORDER BY id ${order} LIMIT $2`, args);
    return rows as HookKey[];
  }

  async function listHookIds({ channel, status, eventType, after, limit }: ListQuery): Promise<string[]> {
    if (channel !== undefined) return (await channelKeys(channel, "desc", limit, after, status ? [status] : HOOK_STATUSES, eventType)).map((k) => k.id);
    const where: string[] = ["true"];
    const args: unknown[] = [limit];
    if (status !== undefined) args.push(status), where.push(`status = $${args.length}`);
    if (after !== undefined) args.push(after), where.push(`id < $${args.length}`);
    let n = args.length;
    const type = eventTypeCondition(eventType, () => `$${++n}`);
    args.push(...type.args);
    const rows = await x().unsafe(`SELECT id FROM hooks WHERE ${where.join(" AND ")}${type.sql} ORDER BY id DESC LIMIT $1`, args);
    return (rows as { id: string }[]).map((r) => r.id);
  }

  return sharedHookStore(pgDialect(t), {
    dialect: "postgres",
    transaction: t.transaction,
    // A commit is durable when PostgreSQL answers it (synchronous_commit on): nothing to sync after.
    // A caught batch only writes (hooks, delivery ids, first attempts): usually one statement.
    caughtTransaction: t.writes,

    /** One statement per batch (see insertPart), or a few for batches of very large bodies. */
    async insertHooks(rows: readonly NewHook[], guardsOfNewChannel: (channel: string) => string[]): Promise<void> {
      // Parts of at most PART_BYTES of bodies (one statement each, in the caller's transaction).
      for (let start = 0; start < rows.length; ) {
        let end = start;
        let bytes = 0;
        while (end < rows.length && (end === start || bytes + rows[end]!.body.byteLength <= PART_BYTES)) bytes += rows[end++]!.body.byteLength;
        await insertPart(rows.slice(start, end), guardsOfNewChannel);
        start = end;
      }
    },

    count,

    listHookIds,

    oldestKeys: (channel, limit) => channelKeys(channel, "asc", limit),

    async overfull(max) {
      const rows = await x().unsafe(
        `SELECT channel AS name, (SUM(pending + handled + failed + discarded) - $1)::float8 AS over FROM channel_counts
         GROUP BY channel HAVING SUM(pending + handled + failed + discarded) > $1`,
        [max],
      );
      return rows as { name: string; over: number }[];
    },

    async newestId(channel) {
      return (await channelKeys(channel, "desc", 1))[0]?.id;
    },

    async listChannels() {
      return ((await x().unsafe(`${CHANNELS} ORDER BY c.name`)) as ChannelRecord[]).map(toChannel);
    },

    async channelsOldestFirst() {
      return ((await x().unsafe(`${CHANNELS} ORDER BY c.created_at, c.name`)) as ChannelRecord[]).map(toChannel);
    },

    async storageBytes() {
      const [r] = (await x().unsafe(`SELECT pg_database_size(current_database())::float8 AS n`)) as { n: number }[];
      return { database: r?.n ?? 0, wal: 0 };
    },

    async getChannel(name) {
      const [r] = (await x().unsafe(`${CHANNELS} WHERE c.name = $1`, [name])) as ChannelRecord[];
      return r ? toChannel(r) : undefined;
    },

    /** The hooks locked in id order, as the search index locks them (search-store.ts): no deadlock; then the counter slots. */
    async dropHooksOf(name) {
      await x().unsafe(`DELETE FROM hooks WHERE id IN (SELECT id FROM hooks WHERE channel = $1 ORDER BY id FOR UPDATE)`, [name]);
      await x().unsafe(`DELETE FROM channel_counts WHERE channel = $1`, [name]);
    },
  });
}
