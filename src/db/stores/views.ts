import { sql } from "drizzle-orm";
import type { ViewRow, ViewStore } from "../../views/store";
import { columnsOf, excluded, name, names, rowValues, type Dialect } from "./dialect";

/** ViewStore on either backend (views/store.ts says what each method returns). */
export function createViewStore(d: Dialect): ViewStore {
  const v = d.tables.savedViews;
  const cols = columnsOf(v);
  const one = d.query<typeof cols, { owner: string; name: string }>(
    cols,
    (list, p) => sql`SELECT ${list} FROM ${v} WHERE ${v.owner} = ${p.owner} AND ${v.name} = ${p.name}`,
  );
  const of = d.query<typeof cols, { owners: readonly string[] }>(
    cols,
    (list, p) => sql`SELECT ${list} FROM ${v} WHERE ${d.anyOf(v.owner, p.owners)} ORDER BY ${v.name}, ${v.owner}`,
  );
  // One statement: a view saved again keeps when and by whom it was made.
  const upsert = d.prepare<ViewRow>(
    () => sql`INSERT INTO ${v} ${rowValues(v)} ON CONFLICT ${names(v.owner, v.name)}
      DO UPDATE SET ${name(v.query)} = ${excluded(v.query)}, ${name(v.updatedAt)} = ${excluded(v.updatedAt)}`,
  );
  const remove = d.prepare<{ owner: string; name: string }>((p) => sql`DELETE FROM ${v} WHERE ${v.owner} = ${p.owner} AND ${v.name} = ${p.name}`);
  return {
    list: (owners) => of.all({ owners }),
    get: (owner, name) => one.get({ owner, name }),
    save: (view) =>
      d.transaction(async () => {
        await upsert.run(view);
        return (await one.get(view))!;
      }),
    remove: (owner, name) => d.write(async () => (await remove.run({ owner, name })) > 0),
  };
}
