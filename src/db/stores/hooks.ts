import { sql } from "drizzle-orm";
import type { HookKey, HookStatus, HookStore, RawHook } from "../../hooks/store";
import { PREVIEW_BYTES } from "../../hooks/preview";
import { excluded, name, names, type Dialect } from "./dialect";

/** Deltas of the four counters, by channel. */
export type Deltas = Map<string, Record<HookStatus, number>>;

export function addDelta(d: Deltas, channel: string, status: HookStatus, n: number): void {
  let row = d.get(channel);
  if (!row) d.set(channel, (row = { pending: 0, handled: 0, failed: 0, discarded: 0 }));
  row[status] += n;
}

/**
 * What each backend keeps its own way, written per backend (db/sqlite/hook-store.ts,
 * db/pg/hook-store.ts); the methods are HookStore's of the same names:
 * - catching (`insertHooks`, the hot path): a statement prepared once and run per hook on SQLite,
 *   one unnest statement per batch on PostgreSQL;
 * - the channel counters (`count`, and every read of them: `overfull`, `getChannel`,
 *   `listChannels`, `channelsOldestFirst`): columns of the channel's row on SQLite, whose
 *   transactions take turns; striped slots in `channel_counts` on PostgreSQL, so that instances
 *   catching at once do not queue on one row;
 * - lists of keys (`listHookIds`, `oldestKeys`, `newestId`): SQLite merges its index ranges in JS
 *   (a statement per range, each cheap), PostgreSQL in one UNION ALL statement (a round trip each);
 * - `dropHooksOf`, a deleted channel's hooks: SQLite deletes their events first (one range
 *   instead of a cascade per hook), PostgreSQL locks the hooks in id order and drops the slots;
 * - the transactions and `storageBytes` (files on SQLite, the database's size on PostgreSQL).
 */
export type HookBackend = Pick<
  HookStore,
  | "dialect"
  | "transaction"
  | "caughtTransaction"
  | "insertHooks"
  | "listHookIds"
  | "oldestKeys"
  | "newestId"
  | "overfull"
  | "listChannels"
  | "channelsOldestFirst"
  | "getChannel"
  | "storageBytes"
> & {
  /** Adds the deltas to the channels' counters, in the caller's transaction. */
  count(deltas: Deltas): Promise<void>;
  /** In transaction: deletes a channel's hooks (their events and attempts with them) and its counters. */
  dropHooksOf(channel: string): Promise<void>;
};

/**
 * HookStore on either backend (hooks/store.ts says what each method does): what is the same text
 * but for placeholders is written once here, each statement prepared when the store is made (reads
 * of hooks are the dashboard's and the API's hot paths); the rest is the backend's (above).
 */
export function createHookStore(d: Dialect, own: HookBackend): HookStore {
  const { hooks: h, events: e, channels: c } = d.tables;
  const row = {
    id: h.id,
    channel: h.channel,
    status: h.status,
    method: h.method,
    query: h.query,
    // Parsed as it is read: no second object per row.
    headers: sql<Record<string, string>>`${h.headers}`.mapWith(JSON.parse),
    // As the driver reads it: SQLite's blob mode "buffer" would copy each body into a Buffer.
    body: sql<Uint8Array>`${h.body}`,
    ip: h.ip,
    createdAt: h.createdAt,
    finalizedAt: h.finalizedAt,
    eventType: h.eventType,
    sourceId: h.sourceId,
    verified: h.verified,
  };
  const { body: _, ...summary } = row;

  const getHook = d.query<typeof row, { id: string }>(row, (cols, p) => sql`SELECT ${cols} FROM ${h} WHERE ${h.id} = ${p.id}`);
  const getHooks = d.query<typeof row, { ids: readonly string[] }>(row, (cols, p) => sql`SELECT ${cols} FROM ${h} WHERE ${d.anyOf(h.id, p.ids)}`);
  const pageOf = d.query<typeof row, { ids: readonly string[] }>(
    row,
    (cols, p) => sql`SELECT ${cols} FROM ${h} WHERE ${d.anyOf(h.id, p.ids)} ORDER BY ${h.id} DESC`,
  );
  // length() and substr() of a blob or bytea are bytes on both; substr of an empty blob is NULL on SQLite.
  const summaryRow = {
    ...summary,
    size: sql<number>`length(${h.body})`,
    head: sql<Uint8Array>`substr(${h.body}, 1, ${sql.raw(String(PREVIEW_BYTES))})`.mapWith((v: Uint8Array) => new Uint8Array(v)),
  };
  const getSummary = d.query<typeof summaryRow, { id: string }>(summaryRow, (cols, p) => sql`SELECT ${cols} FROM ${h} WHERE ${h.id} = ${p.id}`);
  const event = { hookId: e.hookId, kind: e.kind, actor: e.actor, message: e.message, createdAt: e.createdAt };
  const eventsOf = d.query<typeof event, { ids: readonly string[] }>(
    event,
    (cols, p) => sql`SELECT ${cols} FROM ${e} WHERE ${d.anyOf(e.hookId, p.ids)} ORDER BY ${e.id}`,
  );
  const addEvent = d.prepare<{ hookId: string; kind: string; actor: string; message: string; createdAt: number }>(
    (p) =>
      sql`INSERT INTO ${e} ${names(e.hookId, e.kind, e.actor, e.message, e.createdAt)} VALUES (${p.hookId}, ${p.kind}, ${p.actor}, ${p.message}, ${p.createdAt})`,
  );
  const move = d.prepare<{ id: string; from: HookStatus; to: HookStatus; finalizedAt: number | null }>(
    (p) => sql`UPDATE ${h} SET ${name(h.status)} = ${p.to}, ${name(h.finalizedAt)} = ${p.finalizedAt} WHERE ${h.id} = ${p.id} AND ${h.status} = ${p.from}`,
  );
  const key = { id: h.id, channel: h.channel, status: h.status };
  // moveMany's statements: the keys read (and on PostgreSQL locked in id order, as deleteMany
  // locks), then one UPDATE and one INSERT of events for the hooks that move. The event's values
  // are cast: PostgreSQL reads a bare parameter in a SELECT list as text.
  const keysOf = d.query<typeof key, { ids: readonly string[] }>(
    key,
    (cols, p) => sql`SELECT ${cols} FROM ${h} WHERE ${d.anyOf(h.id, p.ids)} ORDER BY ${h.id}${d.forUpdate}`,
  );
  const moveAll = d.prepare<{ ids: readonly string[]; to: HookStatus; finalizedAt: number | null }>(
    (p) => sql`UPDATE ${h} SET ${name(h.status)} = ${p.to}, ${name(h.finalizedAt)} = CAST(${p.finalizedAt} AS BIGINT) WHERE ${d.anyOf(h.id, p.ids)}`,
  );
  const eventsOfMove = d.prepare<{ ids: readonly string[]; kind: string; actor: string; message: string; createdAt: number }>(
    (p) =>
      sql`INSERT INTO ${e} ${names(e.hookId, e.kind, e.actor, e.message, e.createdAt)}
      SELECT ${h.id}, CAST(${p.kind} AS TEXT), CAST(${p.actor} AS TEXT), CAST(${p.message} AS TEXT), CAST(${p.createdAt} AS BIGINT)
      FROM ${h} WHERE ${d.anyOf(h.id, p.ids)} ORDER BY ${h.id}`,
  );
  const keysBelow = d.query<typeof key, { id: string; limit: number }>(
    key,
    (cols, p) => sql`SELECT ${cols} FROM ${h} WHERE ${h.id} < ${p.id} ORDER BY ${h.id} LIMIT ${p.limit}`,
  );
  // Rows locked in id order on PostgreSQL, as the search index locks them (db/pg/search-store.ts): no deadlock.
  const deleteMany = d.query<typeof key, { ids: readonly string[] }>(
    key,
    (cols, p) =>
      sql`DELETE FROM ${h} WHERE ${h.id} IN (SELECT ${h.id} FROM ${h} WHERE ${d.anyOf(h.id, p.ids)} ORDER BY ${h.id}${d.forUpdate}) RETURNING ${cols}`,
  );
  const deleteOne = d.query<{ status: typeof h.status }, { id: string }>(
    { status: h.status },
    (cols, p) => sql`DELETE FROM ${h} WHERE ${h.id} = ${p.id} RETURNING ${cols}`,
  );
  const upsertChannel = d.prepare<{ name: string; guards: string; now: number }>(
    (p) => sql`INSERT INTO ${c} ${names(c.name, c.guards, c.createdAt)} VALUES (${p.name}, ${p.guards}, ${p.now})
      ON CONFLICT ${names(c.name)} DO UPDATE SET ${name(c.guards)} = ${excluded(c.guards)} WHERE ${c.deletingSince} IS NULL`,
  );
  // A pause is refused while a deletion runs; a resume is not. The flag is encoded by its column (0/1 on SQLite).
  const setPaused = d.prepare<{ name: string; paused: boolean }>((p) => {
    const paused = sql.param(p.paused, c.paused);
    return sql`UPDATE ${c} SET ${name(c.paused)} = ${paused} WHERE ${c.name} = ${p.name} AND (NOT ${paused} OR ${c.deletingSince} IS NULL)`;
  });
  const markDeletion = d.prepare<{ name: string; at: number; staleBefore: number }>(
    (p) =>
      sql`UPDATE ${c} SET ${name(c.deletingSince)} = ${p.at} WHERE ${c.name} = ${p.name} AND (${c.deletingSince} IS NULL OR ${c.deletingSince} < ${p.staleBefore})`,
  );
  const one = { one: sql<number>`1` };
  const channelExists = d.query<typeof one, { name: string }>(one, (cols, p) => sql`SELECT ${cols} FROM ${c} WHERE ${c.name} = ${p.name}`);
  const endDeletion = d.prepare<{ name: string }>((p) => sql`UPDATE ${c} SET ${name(c.deletingSince)} = NULL WHERE ${c.name} = ${p.name}`);
  const deleteChannel = d.prepare<{ name: string }>((p) => sql`DELETE FROM ${c} WHERE ${c.name} = ${p.name}`);

  /** In transaction: deletes these hooks and takes each off its channel's counter by the status it has now. */
  async function deleteKeys(ids: readonly string[]): Promise<HookKey[]> {
    if (ids.length === 0) return [];
    const gone = await deleteMany.all({ ids });
    const deltas: Deltas = new Map();
    for (const g of gone) addDelta(deltas, g.channel, g.status, -1);
    await own.count(deltas);
    return gone;
  }

  return {
    dialect: own.dialect,
    transaction: own.transaction,
    caughtTransaction: own.caughtTransaction,
    insertHooks: own.insertHooks,

    async getHook(id) {
      return getHook.get({ id });
    },

    async getHooks(ids) {
      if (ids.length === 0) return [];
      return getHooks.all({ ids });
    },

    async getHookSummary(id) {
      const r = await getSummary.get({ id });
      if (r) r.head ??= new Uint8Array(0);
      return r;
    },

    listHookIds: own.listHookIds,

    /** The hooks of a page, newest first (the backend's listHookIds, then the rows). */
    async listHooks(query) {
      const ids = await own.listHookIds(query);
      if (ids.length === 0) return [];
      return pageOf.all({ ids });
    },

    async eventsOf(ids) {
      const out = new Map(ids.map((id) => [id, [] as { hookId: string; kind: string; actor: string; message: string; createdAt: number }[]]));
      if (ids.length === 0) return out;
      for (const ev of await eventsOf.all({ ids })) out.get(ev.hookId)?.push(ev);
      return out;
    },

    async setStatus(hook: RawHook, to, finalizedAt) {
      // On PostgreSQL (READ COMMITTED), a racing transition waits for the row's lock, then sees the
      // status the winner committed: its WHERE no longer matches and it changes nothing.
      if ((await move.run({ id: hook.id, from: hook.status, to, finalizedAt })) === 0) return false;
      const deltas: Deltas = new Map();
      addDelta(deltas, hook.channel, hook.status, -1);
      addDelta(deltas, hook.channel, to, 1);
      await own.count(deltas);
      d.report({ kind: "hook", id: hook.id, channel: hook.channel, status: to });
      return true;
    },

    addEvent: async (ev) => void (await addEvent.run(ev)),

    async moveMany(ids, move, keep) {
      if (ids.length === 0) return [];
      const from = new Set<HookStatus>(move.from);
      const keys = (await keysOf.all({ ids })).filter((k) => from.has(k.status) && (keep === undefined || keep(k)));
      if (keys.length === 0) return [];
      const moved = keys.map((k) => k.id);
      await moveAll.run({ ids: moved, to: move.to, finalizedAt: move.finalizedAt });
      await eventsOfMove.run({ ids: moved, ...move.event });
      const deltas: Deltas = new Map();
      for (const k of keys) addDelta(deltas, k.channel, k.status, -1), addDelta(deltas, k.channel, move.to, 1);
      await own.count(deltas);
      for (const k of keys) d.report({ kind: "hook", id: k.id, channel: k.channel, status: move.to });
      return keys;
    },

    oldestKeys: own.oldestKeys,
    keysBelow: (id, limit) => keysBelow.all({ id, limit }),
    overfull: own.overfull,
    newestId: own.newestId,

    async deleteHooks(keys) {
      // Counted by the status each hook has now (the keys may be older than a change made meanwhile).
      const gone = await deleteKeys(keys.map((k) => k.id));
      for (const g of gone) d.report({ kind: "hook", id: g.id, channel: g.channel, deleted: true });
      return gone.length;
    },

    retractCaught: async (ids) => void (await deleteKeys(ids)),

    async deleteHook(hook) {
      const gone = await deleteOne.get({ id: hook.id });
      if (!gone) return false;
      const deltas: Deltas = new Map();
      addDelta(deltas, hook.channel, gone.status, -1);
      await own.count(deltas);
      d.report({ kind: "hook", id: hook.id, channel: hook.channel, deleted: true });
      return true;
    },

    listChannels: own.listChannels,
    channelsOldestFirst: own.channelsOldestFirst,
    storageBytes: own.storageBytes,
    getChannel: own.getChannel,

    async upsertChannel(name, guards, now) {
      if ((await upsertChannel.run({ name, guards: JSON.stringify(guards), now })) === 0) return false;
      d.report({ kind: "channel", name });
      return true;
    },

    async setPaused(name, paused) {
      // A deletion's mark set at once waits for this row's lock on PostgreSQL, or this for its: never both.
      if ((await setPaused.run({ name, paused })) === 0) return false;
      d.report({ kind: "channel", name });
      return true;
    },

    async beginDeletion(name, at, staleBefore) {
      if ((await markDeletion.run({ name, at, staleBefore })) > 0) return "begun";
      return (await channelExists.get({ name })) ? "busy" : "missing";
    },

    endDeletion: async (name) => void (await endDeletion.run({ name })),

    async deleteChannel(name) {
      await own.dropHooksOf(name);
      if ((await deleteChannel.run({ name })) === 0) return false;
      d.report({ kind: "channel", name });
      return true;
    },
  };
}
