import { and, eq, sql } from "drizzle-orm";
import type { RelayListener, RelayStore } from "../../relay/store";
import { columnsOf, name, names, rowValues, type Dialect, type Placeholders } from "./dialect";

/**
 * RelayStore on either backend (relay/store.ts says what each method returns). A claim inserts
 * the relay's row when there is none (ON CONFLICT DO NOTHING), else reads it locked (FOR UPDATE on
 * PostgreSQL; SQLite's transactions take turns) and takes it over or names its holder, so two
 * instances claiming at once agree.
 */
export function createRelayStore(d: Dialect): RelayStore {
  const r = d.tables.relayListeners;
  const row = columnsOf(r);
  type Ids = { handler: string; listener: string; instance: string };
  const isHeld = (p: Placeholders<Ids>) => and(eq(r.handler, p.handler), eq(r.listener, p.listener), eq(r.instance, p.instance));
  const insert = d.prepare<RelayListener>(() => sql`INSERT INTO ${r} ${rowValues(r)} ON CONFLICT ${names(r.handler)} DO NOTHING`);
  const held = d.query<typeof row, { handler: string }>(row, (cols, p) => sql`SELECT ${cols} FROM ${r} WHERE ${r.handler} = ${p.handler}${d.forUpdate}`);
  const takeOver = d.prepare<RelayListener>(
    (p) => sql`UPDATE ${r} SET ${name(r.listener)} = ${p.listener}, ${name(r.host)} = ${p.host}, ${name(r.startedAt)} = ${p.startedAt},
      ${name(r.connectedAt)} = ${p.connectedAt}, ${name(r.seenAt)} = ${p.seenAt}, ${name(r.instance)} = ${p.instance} WHERE ${r.handler} = ${p.handler}`,
  );
  const touch = d.prepare<Ids & { now: number }>((p) => sql`UPDATE ${r} SET ${name(r.seenAt)} = ${p.now} WHERE ${isHeld(p)}`);
  const release = d.prepare<Ids>((p) => sql`DELETE FROM ${r} WHERE ${isHeld(p)}`);
  const list = d.query(row, (cols) => sql`SELECT ${cols} FROM ${r} ORDER BY ${r.handler}`);
  const changed = () => d.report({ kind: "state", part: "relays" });
  return {
    claim: (who, now, staleBefore) =>
      d.transaction(async () => {
        const claim = { ...who, seenAt: now };
        if ((await insert.run(claim)) > 0) return (changed(), { claimed: true } as const);
        const holder = await held.get({ handler: who.handler });
        if (holder && holder.listener !== who.listener && holder.seenAt >= staleBefore) return { claimed: false, holder };
        await takeOver.run(claim);
        changed();
        return { claimed: true } as const;
      }),
    touch: (handler, listener, instance, now) => d.write(async () => (await touch.run({ handler, listener, instance, now })) > 0),
    release: (handler, listener, instance) =>
      d.write(async () => {
        if ((await release.run({ handler, listener, instance })) > 0) changed();
      }),
    list: () => list.all({}),
  };
}
