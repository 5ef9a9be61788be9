import { sql } from "drizzle-orm";
import type { ForwardRow, ForwardStore } from "../../forwards/store";
import { columnsOf, names, rowValues, type Dialect } from "./dialect";

/** ForwardStore on either backend (forwards/store.ts says what each method returns). */
export function createForwardStore(d: Dialect): ForwardStore {
  const h = d.tables.dashboardHandlers;
  const row = columnsOf(h);
  const list = d.query(row, (cols) => sql`SELECT ${cols} FROM ${h} ORDER BY ${h.name}`);
  const get = d.query<typeof row, { name: string }>(row, (cols, p) => sql`SELECT ${cols} FROM ${h} WHERE ${h.name} = ${p.name}`);
  const insert = d.prepare<ForwardRow>(() => sql`INSERT INTO ${h} ${rowValues(h)} ON CONFLICT ${names(h.name)} DO NOTHING`);
  const remove = d.prepare<{ name: string }>((p) => sql`DELETE FROM ${h} WHERE ${h.name} = ${p.name}`);
  /** Reports the forwards as changed when `done` (once the caller's transaction commits). */
  const changed = (done: boolean) => (done && d.report({ kind: "state", part: "forwards" }), done);
  return {
    list: () => list.all({}),
    get: (name) => get.get({ name }),
    insert: (r) => d.write(async () => changed((await insert.run(r)) > 0)),
    remove: (name) => d.write(async () => changed((await remove.run({ name })) > 0)),
  };
}
