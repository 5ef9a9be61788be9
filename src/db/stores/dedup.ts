import { sql } from "drizzle-orm";
import type { DedupStore } from "../../dedup/store";
import { excluded, name, names, type Dialect } from "./dialect";

/**
 * The delivery ids and their claims, which each backend keeps its own way and so are written per
 * backend (db/sqlite/dedup-deliveries.ts, db/pg/dedup-deliveries.ts): on SQLite, whose data file
 * one process owns, a claim is kept beside the connection and only committed ids are rows; on
 * PostgreSQL the claim is the row itself (its `pending` column, which SQLite's table has not),
 * so that instances racing for one id agree through its unique key. The methods are DedupStore's
 * of the same names; `forget` runs in the caller's transaction.
 */
export type DeliveryIds = Pick<DedupStore, "claim" | "record" | "release" | "channels" | "sweep" | "forget">;

/**
 * DedupStore on either backend (dedup/store.ts says what each method returns): the counts of
 * repeats dropped are written once here; the delivery ids and claims are the backend's (above).
 * Counters are single statements, safe under concurrent instances.
 */
export function createDedupStore(d: Dialect, ids: DeliveryIds): DedupStore {
  const st = d.tables.dedupStats;
  const countDrop = d.query<{ dropped: typeof st.dropped }, { channel: string; at: number }>(
    { dropped: st.dropped },
    (cols, p) => sql`INSERT INTO ${st} ${names(st.channel, st.dropped, st.lastDroppedAt)} VALUES (${p.channel}, 1, ${p.at})
      ON CONFLICT ${names(st.channel)} DO UPDATE SET ${name(st.dropped)} = ${st.dropped} + 1, ${name(st.lastDroppedAt)} = ${excluded(st.lastDroppedAt)}
      RETURNING ${cols}`,
  );
  const stats = d.query<{ dropped: typeof st.dropped; lastDroppedAt: typeof st.lastDroppedAt }, { channel: string }>(
    { dropped: st.dropped, lastDroppedAt: st.lastDroppedAt },
    (cols, p) => sql`SELECT ${cols} FROM ${st} WHERE ${st.channel} = ${p.channel}`,
  );
  const dropped = d.query({ channel: st.channel, dropped: st.dropped }, (cols) => sql`SELECT ${cols} FROM ${st}`);
  const forget = d.prepare<{ channel: string }>((p) => sql`DELETE FROM ${st} WHERE ${st.channel} = ${p.channel}`);
  return {
    claim: ids.claim,
    record: ids.record,
    release: ids.release,
    countDrop: (channel, at) => d.write(async () => (await countDrop.get({ channel, at }))!.dropped),
    stats: (channel) => stats.get({ channel }),
    async droppedCounts() {
      return new Map((await dropped.all({})).map((r) => [r.channel, r.dropped]));
    },
    channels: ids.channels,
    sweep: ids.sweep,
    forget: (channel) =>
      d.transaction(async () => {
        await ids.forget(channel);
        await forget.run({ channel });
      }),
  };
}
