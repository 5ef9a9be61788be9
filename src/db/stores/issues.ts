import { and, desc, eq, lt, sql, type SQL } from "drizzle-orm";
import type { IssueAction, IssueRow, IssueStore } from "../../alerts/store";
import type { IssueState } from "../../notify/notice";
import { columnsOf, name, rowValues, type Dialect } from "./dialect";

/**
 * IssueStore on either backend (alerts/store.ts says what each method returns). A transition is a
 * compare-and-set on the state inside a transaction (the row read FOR UPDATE on PostgreSQL), so of
 * two racing one wins and the other sees "conflict".
 */
export function createIssueStore(d: Dialect): IssueStore {
  const r = d.tables.alertIssues;
  const cols = columnsOf(r);
  type Stored = Omit<IssueRow, "kind" | "state" | "history"> & { kind: string; state: string; history: string };
  const fromRow = (row: Stored): IssueRow => ({ ...row, kind: row.kind as IssueRow["kind"], state: row.state as IssueState, history: JSON.parse(row.history) });
  const insert = d.prepare<Stored>(() => sql`INSERT INTO ${r} ${rowValues(r)}`);
  const byId = d.query<typeof cols, { id: string }>(cols, (list, p) => sql`SELECT ${list} FROM ${r} WHERE ${r.id} = ${p.id}${d.forUpdate}`);
  const active = d.query<typeof cols, { rule: string; scope: string }>(
    cols,
    (list, p) =>
      sql`SELECT ${list} FROM ${r} WHERE ${r.rule} = ${p.rule} AND ${r.scope} = ${p.scope} AND ${r.state} <> 'resolved' ORDER BY ${r.id} DESC LIMIT 1`,
  );
  const unresolved = d.query(cols, (list) => sql`SELECT ${list} FROM ${r} WHERE ${r.state} <> 'resolved' ORDER BY ${r.id}`);
  const seen = d.prepare<{ id: string; at: number; count: number; summary: string }>(
    (p) => sql`UPDATE ${r} SET ${name(r.lastSeenAt)} = ${p.at}, ${name(r.count)} = ${p.count}, ${name(r.summary)} = ${p.summary}
      WHERE ${r.id} = ${p.id} AND ${r.state} <> 'resolved'`,
  );
  const notified = d.prepare<{ id: string; at: number }>(
    (p) => sql`UPDATE ${r} SET ${name(r.notifiedAt)} = ${p.at} WHERE ${r.id} = ${p.id} AND ${r.state} = 'open'`,
  );
  const move = d.prepare<{ id: string; state: string; resolvedAt: number | null; history: string }>(
    (p) =>
      sql`UPDATE ${r} SET ${name(r.state)} = ${p.state}, ${name(r.resolvedAt)} = ${p.resolvedAt}, ${name(r.history)} = ${p.history} WHERE ${r.id} = ${p.id}`,
  );
  const open = d.query({ n: sql<number>`count(*)`.mapWith(Number) }, (list) => sql`SELECT ${list} FROM ${r} WHERE ${r.state} = 'open'`);
  return {
    dialect: d.dialect,
    transaction: (fn) => d.transaction(fn),
    open: (issue) =>
      d.write(async () => {
        await insert.run({ ...issue, history: JSON.stringify(issue.history) });
        d.report({ kind: "issue", id: issue.id, event: "opened" });
      }),
    active: async (rule, scope) => {
      const row = await active.get({ rule, scope });
      return row && fromRow(row);
    },
    unresolved: async () => (await unresolved.all({})).map(fromRow),
    seen: (id, at, count, summary) => d.write(async () => (await seen.run({ id, at, count, summary })) > 0),
    notified: (id, at) =>
      d.write(async () => {
        const changed = (await notified.run({ id, at })) > 0;
        if (changed) d.report({ kind: "issue", id, event: "reminded" });
        return changed;
      }),
    transition: (id, from, to, action: IssueAction) =>
      d.transaction(async () => {
        const row = await byId.get({ id });
        if (!row) return undefined;
        const issue = fromRow(row);
        if (!from.includes(issue.state)) return "conflict" as const;
        const history = [...issue.history, action];
        const resolvedAt = to === "resolved" ? action.at : null;
        await move.run({ id, state: to, resolvedAt, history: JSON.stringify(history) });
        if (to !== "open") d.report({ kind: "issue", id, event: to });
        return { ...issue, state: to, resolvedAt, history };
      }),
    get: async (id) => {
      const row = await byId.get({ id });
      return row && fromRow(row);
    },
    list: async ({ state, before, limit }) => {
      const where: SQL[] = [];
      if (state) where.push(eq(r.state, state));
      if (before) where.push(lt(r.id, before));
      const rows = await d.rows(
        cols,
        (list) => sql`SELECT ${list} FROM ${r}${where.length ? sql` WHERE ${and(...where)}` : sql``} ORDER BY ${desc(r.id)} LIMIT ${limit}`,
      );
      return rows.map(fromRow);
    },
    countOpen: async () => (await open.get({}))?.n ?? 0,
  };
}
