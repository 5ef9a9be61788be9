import { sql } from "drizzle-orm";
import type { AlertRuleRow, AlertRuleStore } from "../../alerts/rule-store";
import { columnsOf, name, names, rowValues, type Dialect } from "./dialect";

/** AlertRuleStore on either backend (alerts/rule-store.ts says what each method returns). */
export function createAlertRuleStore(d: Dialect): AlertRuleStore {
  const r = d.tables.alertRules;
  const cols = columnsOf(r);
  const all = d.query(cols, (list) => sql`SELECT ${list} FROM ${r} ORDER BY ${r.name}`);
  const one = d.query<typeof cols, { name: string }>(cols, (list, p) => sql`SELECT ${list} FROM ${r} WHERE ${r.name} = ${p.name}`);
  // A name taken wins over the second create: the primary key decides, one statement.
  const insert = d.prepare<AlertRuleRow>(() => sql`INSERT INTO ${r} ${rowValues(r)} ON CONFLICT ${names(r.name)} DO NOTHING`);
  const update = d.prepare<{ name: string; rule: string; by: string; at: number }>(
    (p) => sql`UPDATE ${r} SET ${name(r.rule)} = ${p.rule}, ${name(r.updatedBy)} = ${p.by}, ${name(r.updatedAt)} = ${p.at} WHERE ${r.name} = ${p.name}`,
  );
  const remove = d.prepare<{ name: string }>((p) => sql`DELETE FROM ${r} WHERE ${r.name} = ${p.name}`);
  const changed = () => d.report({ kind: "state", part: "alert_rules" });
  return {
    list: () => all.all({}),
    get: (name) => one.get({ name }),
    create: (row) =>
      d.write(async () => {
        const made = (await insert.run(row)) > 0;
        if (made) changed();
        return made;
      }),
    update: (name, rule, by, at) =>
      d.transaction(async () => {
        if ((await update.run({ name, rule, by, at })) === 0) return undefined;
        changed();
        return one.get({ name });
      }),
    remove: (name) =>
      d.write(async () => {
        const gone = (await remove.run({ name })) > 0;
        if (gone) changed();
        return gone;
      }),
  };
}
