import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { ContractResult } from "../../contracts/check";
import type { ContractRecord, ContractStore } from "../../contracts/store";
import { names, valuesOf, type Dialect } from "./dialect";

const CHUNK = 500;

/** ContractStore on either backend (contracts/store.ts says what each method returns). */
export function createContractStore(d: Dialect): ContractStore {
  const c = d.tables.hookContracts;
  const seen = d.tables.contractSeen;
  const h = d.tables.hooks;
  const fields = {
    hookId: c.hookId,
    channel: c.channel,
    result: c.result,
    violations: c.violations,
    newType: c.newType,
    newField: c.newField,
    checkedAt: c.checkedAt,
  };
  const insert = d.prepare<{ rows: unknown[][] }>(
    (p) => sql`INSERT INTO ${c} ${names(c.hookId, c.channel, c.result, c.violations, c.newType, c.newField, c.checkedAt)}
      SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, CAST(CAST(value ->> 4 AS INTEGER) AS BOOLEAN),
        CAST(CAST(value ->> 5 AS INTEGER) AS BOOLEAN), CAST(value ->> 6 AS BIGINT)
      FROM ${d.each(p.rows)} WHERE EXISTS (SELECT 1 FROM ${h} WHERE ${h.id} = value ->> 0) ON CONFLICT DO NOTHING`,
  );
  return {
    async record(rows) {
      // One statement prepared once for a batch of any size, the rows as one JSON parameter; a
      // hook deleted between its catch and its check is left out by the EXISTS. (Rendering an
      // INSERT of N rows with drizzle per batch cost catching about 8 µs a hook: issue 29.)
      for (let i = 0; i < rows.length; i += CHUNK) {
        const part = rows
          .slice(i, i + CHUNK)
          .map((r) => [r.hookId, r.channel, r.result, JSON.stringify(r.violations), r.newType ? 1 : 0, r.newField ? 1 : 0, r.checkedAt]);
        await d.write(() => insert.run({ rows: part }));
      }
    },
    async claimSeen(channel, eventType, paths, hookId) {
      const won: string[] = [];
      for (let i = 0; i < paths.length; i += CHUNK) {
        const part = paths.slice(i, i + CHUNK).map((path) => ({ channel, eventType, path, firstHook: hookId }));
        const rows = await d.write(() =>
          d.rows({ path: seen.path }, (cols) => sql`INSERT INTO ${seen} ${valuesOf(seen, part)} ON CONFLICT DO NOTHING RETURNING ${cols}`),
        );
        for (const r of rows) won.push(r.path);
      }
      return won;
    },
    async of(hookIds) {
      const out = new Map<string, ContractRecord>();
      if (hookIds.length === 0) return out;
      const rows = await d.rows(
        fields,
        (cols) =>
          sql`SELECT ${cols} FROM ${c} WHERE ${c.hookId} IN (${sql.join(
            hookIds.map((id) => sql.param(id, c.hookId)),
            sql`, `,
          )})`,
      );
      for (const r of rows) out.set(r.hookId, { ...r, result: r.result as ContractResult, violations: JSON.parse(r.violations) });
      return out;
    },
    async idsWhere(where, limit) {
      const conds: SQL[] = [];
      if (where.result) conds.push(eq(c.result, where.result));
      if (where.newType) conds.push(eq(c.newType, true));
      if (where.newField) conds.push(eq(c.newField, true));
      if (where.channel) conds.push(eq(c.channel, where.channel));
      const filter = conds.length ? sql` WHERE ${and(...conds)}` : sql``;
      const rows = await d.rows({ id: c.hookId }, (cols) => sql`SELECT ${cols} FROM ${c}${filter} ORDER BY ${desc(c.hookId)} LIMIT ${sql.param(limit)}`);
      return rows.map((r) => r.id);
    },
  };
}
