import { sql, type SQL } from "drizzle-orm";
import type { ReadStore, TagStore } from "../../tags/store";
import { names, type Dialect } from "./dialect";

/** Ids per statement: a list is one parameter (`anyOf`), kept to a size both backends plan well. */
const CHUNK = 1000;

function* chunks<T>(list: readonly T[]): Generator<T[]> {
  for (let i = 0; i < list.length; i += CHUNK) yield list.slice(i, i + CHUNK);
}

/** TagStore on either backend (tags/store.ts says what each method returns). */
export function createTagStore(d: Dialect): TagStore {
  const t = d.tables.hookTags;
  const h = d.tables.hooks;
  // INSERT ... SELECT from hooks: only hooks that exist get the tag, and a hook deleted at once is
  // either tagged and its tags removed with it (cascade), or not tagged.
  const add = d.prepare<{ ids: readonly string[]; tag: string; at: number }>(
    (p) => sql`INSERT INTO ${t} ${names(t.hookId, t.tag, t.createdAt)}
      SELECT ${h.id}, ${p.tag}, ${p.at} FROM ${h} WHERE ${d.anyOf(h.id, p.ids)} ON CONFLICT DO NOTHING`,
  );
  const remove = d.prepare<{ ids: readonly string[]; tag: string }>((p) => sql`DELETE FROM ${t} WHERE ${t.tag} = ${p.tag} AND ${d.anyOf(t.hookId, p.ids)}`);
  const of = d.query<{ hookId: typeof t.hookId; tag: typeof t.tag }, { ids: readonly string[] }>(
    { hookId: t.hookId, tag: t.tag },
    (cols, p) => sql`SELECT ${cols} FROM ${t} WHERE ${d.anyOf(t.hookId, p.ids)} ORDER BY ${t.hookId}, ${t.tag}`,
  );
  const counts = d.query(
    { tag: t.tag, count: sql<number>`count(*)`.mapWith(Number) },
    (cols) => sql`SELECT ${cols} FROM ${t} GROUP BY ${t.tag} ORDER BY ${t.tag}`,
  );
  // A limited caller's counts: the hooks of its channels (the channel index's ranges), each hook's
  // tags by the primary key; never the tags of other channels' hooks.
  const channelCounts = d.query<{ tag: typeof t.tag; count: SQL<number> }, { channels: readonly string[] }>(
    { tag: t.tag, count: sql<number>`count(*)`.mapWith(Number) },
    (cols, p) => sql`SELECT ${cols} FROM ${h} JOIN ${t} ON ${t.hookId} = ${h.id} WHERE ${d.anyOf(h.channel, p.channels)} GROUP BY ${t.tag} ORDER BY ${t.tag}`,
  );
  const withTag = d.query<{ id: typeof t.hookId }, { tag: string }>(
    { id: t.hookId },
    (cols, p) => sql`SELECT ${cols} FROM ${t} WHERE ${t.tag} = ${p.tag} ORDER BY ${t.hookId}`,
  );
  const channels = d.query<{ id: typeof h.id; channel: typeof h.channel }, { ids: readonly string[] }>(
    { id: h.id, channel: h.channel },
    (cols, p) => sql`SELECT ${cols} FROM ${h} WHERE ${d.anyOf(h.id, p.ids)}`,
  );
  /**
   * Each hook of `ids` changed: reported (once committed) as a hook change, so that streams send it
   * again with its tags and the other instances hear of it. The hooks' channels are read only then.
   */
  async function changed(ids: readonly string[]): Promise<void> {
    for (const row of await channels.all({ ids })) d.report({ kind: "hook", id: row.id, channel: row.channel });
  }
  return {
    async addTags(ids, tags, at) {
      let added = 0;
      for (const part of chunks(ids)) {
        let here = 0;
        for (const tag of new Set(tags)) here += await d.write(() => add.run({ ids: part, tag, at }));
        if (here > 0) await changed(part);
        added += here;
      }
      return added;
    },
    async removeTags(ids, tags) {
      let removed = 0;
      for (const part of chunks(ids)) {
        let here = 0;
        for (const tag of new Set(tags)) here += await d.write(() => remove.run({ ids: part, tag }));
        if (here > 0) await changed(part);
        removed += here;
      }
      return removed;
    },
    async tagsOf(ids) {
      const map = new Map<string, string[]>();
      for (const part of chunks(ids))
        for (const row of await of.all({ ids: part })) {
          const list = map.get(row.hookId);
          if (list) list.push(row.tag);
          else map.set(row.hookId, [row.tag]);
        }
      return map;
    },
    counts: async (channels) => (channels === undefined ? counts.all({}) : channels.length === 0 ? [] : channelCounts.all({ channels })),
    idsWith: async (tag) => (await withTag.all({ tag })).map((r) => r.id),
  };
}

/** ReadStore on either backend (tags/store.ts). */
export function createReadStore(d: Dialect): ReadStore {
  const r = d.tables.hookReads;
  const h = d.tables.hooks;
  const mark = d.prepare<{ user: string; ids: readonly string[]; at: number }>(
    (p) => sql`INSERT INTO ${r} ${names(r.userId, r.hookId, r.readAt)}
      SELECT ${p.user}, ${h.id}, ${p.at} FROM ${h} WHERE ${d.anyOf(h.id, p.ids)} ON CONFLICT DO NOTHING`,
  );
  const unmark = d.prepare<{ user: string; ids: readonly string[] }>(
    (p) => sql`DELETE FROM ${r} WHERE ${r.userId} = ${p.user} AND ${d.anyOf(r.hookId, p.ids)}`,
  );
  const read = d.query<{ id: typeof r.hookId }, { user: string; ids: readonly string[] }>(
    { id: r.hookId },
    (cols, p) => sql`SELECT ${cols} FROM ${r} WHERE ${r.userId} = ${p.user} AND ${d.anyOf(r.hookId, p.ids)}`,
  );
  // The reader's marks (by the key's user_id prefix) joined to their hooks by id: as many rows as
  // the reader read, never every hook (unread = a channel's count less these: tags/index.ts).
  const readFields = { channel: h.channel, count: sql<number>`count(*)`.mapWith(Number) };
  const readCounts = d.query<typeof readFields, { user: string }>(
    readFields,
    (cols, p) => sql`SELECT ${cols} FROM ${r} JOIN ${h} ON ${h.id} = ${r.hookId} WHERE ${r.userId} = ${p.user} GROUP BY ${h.channel}`,
  );
  const channels = d.query<{ channel: typeof h.channel }, { ids: readonly string[] }>(
    { channel: h.channel },
    (cols, p) => sql`SELECT DISTINCT ${cols} FROM ${h} WHERE ${d.anyOf(h.id, p.ids)}`,
  );
  /**
   * Marks changed on these hooks: their channels are reported (once committed) as channel changes,
   * so open dashboards, here and on the other instances, read their unread counts again. A mark
   * is one reader's: no hook is sent again for it.
   */
  async function changed(ids: readonly string[]): Promise<void> {
    for (const row of await channels.all({ ids })) d.report({ kind: "channel", name: row.channel });
  }
  return {
    async markRead(user, ids, at) {
      let n = 0;
      for (const part of chunks(ids)) {
        const here = await d.write(() => mark.run({ user, ids: part, at }));
        if (here > 0) await changed(part);
        n += here;
      }
      return n;
    },
    async markUnread(user, ids) {
      let n = 0;
      for (const part of chunks(ids)) {
        const here = await d.write(() => unmark.run({ user, ids: part }));
        if (here > 0) await changed(part);
        n += here;
      }
      return n;
    },
    async readOf(user, ids) {
      const set = new Set<string>();
      for (const part of chunks(ids)) for (const row of await read.all({ user, ids: part })) set.add(row.id);
      return set;
    },
    async readByChannel(user) {
      return new Map((await readCounts.all({ user })).map((row) => [row.channel, row.count]));
    },
  };
}
