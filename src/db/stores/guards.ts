import { sql } from "drizzle-orm";
import type { GuardRow, GuardStore } from "../../hooks/guard-store";
import { columnsOf, name, names, rowValues, type Dialect } from "./dialect";

/** GuardStore on either backend (hooks/guard-store.ts says what each method returns). */
export function createGuardStore(d: Dialect): GuardStore {
  const g = d.tables.dashboardGuards;
  const row = columnsOf(g);
  const list = d.query(row, (cols) => sql`SELECT ${cols} FROM ${g} ORDER BY ${g.name}`);
  const get = d.query<typeof row, { name: string }>(row, (cols, p) => sql`SELECT ${cols} FROM ${g} WHERE ${g.name} = ${p.name}`);
  const insert = d.prepare<GuardRow>(() => sql`INSERT INTO ${g} ${rowValues(g)} ON CONFLICT ${names(g.name)} DO NOTHING`);
  const update = d.prepare<Pick<GuardRow, "name" | "settings" | "secret" | "updatedAt">>(
    (p) =>
      sql`UPDATE ${g} SET ${name(g.settings)} = ${p.settings}, ${name(g.secret)} = ${p.secret}, ${name(g.updatedAt)} = ${p.updatedAt} WHERE ${g.name} = ${p.name}`,
  );
  const remove = d.prepare<{ name: string }>((p) => sql`DELETE FROM ${g} WHERE ${g.name} = ${p.name}`);
  /** Reports the guards as changed when `done` (once the caller's transaction commits). */
  const changed = (done: boolean) => (done && d.report({ kind: "state", part: "guards" }), done);
  return {
    list: () => list.all({}),
    get: (name) => get.get({ name }),
    insert: (r) => d.write(async () => changed((await insert.run(r)) > 0)),
    update: (name, settings, secret, updatedAt) => d.write(async () => changed((await update.run({ name, settings, secret, updatedAt })) > 0)),
    remove: (name) => d.write(async () => changed((await remove.run({ name })) > 0)),
  };
}
