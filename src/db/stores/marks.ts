import { type SQL, sql } from "drizzle-orm";
import type { MarkStore } from "../../marks/store";
import { names, type Dialect } from "./dialect";

/** Ids per statement: a list is one parameter (`anyOf`), kept to a size both backends plan well. */
const CHUNK = 1000;

function* chunks<T>(list: readonly T[]): Generator<T[]> {
  for (let i = 0; i < list.length; i += CHUNK) yield list.slice(i, i + CHUNK);
}

/** MarkStore on either backend (marks/store.ts says what each method returns). */
export function createMarkStore(d: Dialect): MarkStore {
  const m = d.tables.hookMarks;
  const h = d.tables.hooks;
  const r = d.tables.refusals;
  // INSERT ... SELECT from hooks: only hooks that exist are marked (a hook deleted meanwhile is not).
  const add = d.prepare<{ ids: readonly string[]; kind: string; at: number }>(
    (p) => sql`INSERT INTO ${m} ${names(m.hookId, m.kind, m.createdAt)}
      SELECT ${h.id}, ${p.kind}, ${p.at} FROM ${h} WHERE ${d.anyOf(h.id, p.ids)} ON CONFLICT DO NOTHING`,
  );
  const of = d.query<{ id: typeof m.hookId }, { ids: readonly string[]; kind: string }>(
    { id: m.hookId },
    (cols, p) => sql`SELECT ${cols} FROM ${m} WHERE ${m.kind} = ${p.kind} AND ${d.anyOf(m.hookId, p.ids)}`,
  );
  // The index on (channel, delivery_id) answers it; the refusals kept are few (REFUSALS_KEPT) anyway.
  const refused = d.query<{ id: typeof r.deliveryId }, { channel: string; ids: readonly string[] }>(
    { id: r.deliveryId },
    (cols, p) => sql`SELECT DISTINCT ${cols} FROM ${r} WHERE ${r.channel} = ${p.channel} AND ${d.anyOf(r.deliveryId, p.ids)} AND ${r.kind} = 'refused'`,
  );
  const channels = d.query<{ channel: typeof r.channel; at: SQL<number> }, { since: number }>(
    { channel: r.channel, at: sql<number>`max(${r.createdAt})`.mapWith(Number) },
    (cols, p) =>
      sql`SELECT ${cols} FROM ${r} WHERE ${r.createdAt} >= ${p.since} AND ${r.deliveryId} IS NOT NULL AND ${r.kind} = 'refused' GROUP BY ${r.channel}`,
  );
  return {
    async mark(ids, kind, at) {
      let added = 0;
      for (const part of chunks(ids)) added += await d.write(() => add.run({ ids: part, kind, at }));
      return added;
    },
    async marked(ids, kind) {
      const out = new Set<string>();
      for (const part of chunks(ids)) for (const row of await of.all({ ids: part, kind })) out.add(row.id);
      return out;
    },
    async refusedDeliveries(channel, deliveryIds) {
      const out = new Set<string>();
      for (const part of chunks(deliveryIds)) for (const row of await refused.all({ channel, ids: part })) if (row.id !== null) out.add(row.id);
      return out;
    },
    async refusedChannels(since) {
      return new Map((await channels.all({ since })).map((row) => [row.channel, row.at]));
    },
  };
}
