import { desc, lt, sql } from "drizzle-orm";
import type { BulkCounts, BulkJobRow, BulkJobState, BulkJobStore } from "../../bulk/store";
import { columnsOf, name, rowValues, type Dialect } from "./dialect";

/**
 * BulkJobStore on either backend (bulk/store.ts says what each method returns). Finishing is a
 * compare-and-set on the state inside a transaction (the row read FOR UPDATE on PostgreSQL), so of
 * a cancel and the job's own end one wins; interrupting is one UPDATE of running rows, likewise.
 */
export function createBulkJobStore(d: Dialect): BulkJobStore {
  const j = d.tables.bulkJobs;
  const cols = columnsOf(j);
  type Stored = Omit<BulkJobRow, "params" | "state"> & { params: string; state: string };
  const fromRow = (row: Stored): BulkJobRow => ({ ...row, state: row.state as BulkJobState, params: JSON.parse(row.params) });
  const insert = d.prepare<Stored>(() => sql`INSERT INTO ${j} ${rowValues(j)}`);
  const byId = d.query<typeof cols, { id: string }>(cols, (list, p) => sql`SELECT ${list} FROM ${j} WHERE ${j.id} = ${p.id}${d.forUpdate}`);
  const stateOf = d.query<{ state: typeof j.state }, { id: string }>({ state: j.state }, (list, p) => sql`SELECT ${list} FROM ${j} WHERE ${j.id} = ${p.id}`);
  const counts = d.prepare<BulkCounts & { id: string; until: number }>(
    (p) => sql`UPDATE ${j} SET ${name(j.done)} = ${p.done}, ${name(j.skipped)} = ${p.skipped}, ${name(j.failed)} = ${p.failed},
      ${name(j.leaseUntil)} = CASE WHEN ${j.state} = 'running' THEN ${p.until} ELSE ${j.leaseUntil} END WHERE ${j.id} = ${p.id}`,
  );
  const renew = d.prepare<{ id: string; until: number }>(
    (p) => sql`UPDATE ${j} SET ${name(j.leaseUntil)} = ${p.until} WHERE ${j.id} = ${p.id} AND ${j.state} = 'running'`,
  );
  // One statement: a job renewed at once by its live instance is either renewed first (and kept) or interrupted.
  const abandoned = d.prepare<{ now: number; message: string; all: number }>(
    (p) => sql`UPDATE ${j} SET ${name(j.state)} = 'interrupted', ${name(j.finishedAt)} = ${p.now}, ${name(j.message)} = ${p.message}
      WHERE ${j.state} = 'running' AND (${p.all} = 1 OR ${j.leaseUntil} IS NULL OR ${j.leaseUntil} < ${p.now})`,
  );
  const end = d.prepare<{ id: string; state: string; at: number; message: string }>(
    (p) => sql`UPDATE ${j} SET ${name(j.state)} = ${p.state}, ${name(j.finishedAt)} = ${p.at}, ${name(j.message)} = ${p.message} WHERE ${j.id} = ${p.id}`,
  );
  return {
    create: (job) => d.write(async () => void (await insert.run({ ...job, params: JSON.stringify(job.params) }))),
    async get(id) {
      const row = await byId.get({ id });
      return row && fromRow(row);
    },
    async list({ before, limit }) {
      const where = before ? sql` WHERE ${lt(j.id, before)}` : sql``;
      return (await d.rows(cols, (list) => sql`SELECT ${list} FROM ${j}${where} ORDER BY ${desc(j.id)} LIMIT ${limit}`)).map(fromRow);
    },
    async progress(id, c, until) {
      await d.write(() => counts.run({ id, ...c, until }));
      return (await stateOf.get({ id }))?.state as BulkJobState | undefined;
    },
    renew: (id, until) => d.write(async () => void (await renew.run({ id, until }))),
    interruptAbandoned: (now, message, all = false) => d.write(() => abandoned.run({ now, message, all: all ? 1 : 0 })),
    finish: (id, state, at, message) =>
      d.transaction(async () => {
        const row = await byId.get({ id });
        if (!row) return undefined;
        if (row.state !== "running") return "conflict" as const;
        await end.run({ id, state, at, message });
        return { ...fromRow(row), state, finishedAt: at, message };
      }),
  };
}
