import { sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "./open";
import { attempts } from "../../schema/sqlite";
import { name, sqliteDialect } from "../stores/dialect";
import { attemptFields, createAttemptQueue as sharedAttemptQueue } from "../stores/attempts";
import type { AttemptQueue } from "../../runner/queue";

/**
 * AttemptQueue's SQLite side: its own parts (db/stores/attempts.ts says which, and why; PostgreSQL's
 * are in db/pg/attempt-queue.ts) under the statements written once for both backends. One process
 * owns the data file (db/lock.ts), so every running attempt is this process's and no claim carries
 * a lease.
 */
export function createAttemptQueue(db: Db): AttemptQueue {
  const d = sqliteDialect(db.$client);
  const a = attempts;
  const row = attemptFields(d.tables.attempts);
  // The latest of each handler: its MAX(attempt), a seek of the (hook_id, handler, attempt) index.
  const b = alias(attempts, "b");
  const isLatest = sql`${a.attempt} = (SELECT MAX(${b.attempt}) FROM ${a} ${b} WHERE ${b.hookId} = ${a.hookId} AND ${b.handler} = ${a.handler})`;
  const latest = d.query<typeof row, { hookId: string }>(
    row,
    (cols, p) => sql`SELECT ${cols} FROM ${a} WHERE ${a.hookId} = ${p.hookId} AND ${isLatest} ORDER BY ${a.handler}`,
  );
  const latestOf = d.query<typeof row, { ids: readonly string[] }>(
    row,
    (cols, p) => sql`SELECT ${cols} FROM ${a} WHERE ${d.anyOf(a.hookId, p.ids)} AND ${isLatest} ORDER BY ${a.hookId}, ${a.handler}`,
  );
  const running = d.query<{ n: SQL<number> }, { handler: string }>(
    { n: sql<number>`COUNT(*)` },
    (cols, p) => sql`SELECT ${cols} FROM ${a} WHERE ${a.outcome} = 'running' AND ${a.handler} = ${p.handler}`,
  );
  const due = d.query<typeof row, { handler: string; now: number; limit: number }>(
    row,
    (cols, p) =>
      sql`SELECT ${cols} FROM ${a} WHERE ${a.outcome} = 'queued' AND ${a.handler} = ${p.handler} AND ${a.dueAt} <= ${p.now} ORDER BY ${a.dueAt}, ${a.id} LIMIT ${p.limit}`,
  );
  const claim = d.prepare<{ id: number; now: number }>(
    (p) => sql`UPDATE ${a} SET ${name(a.outcome)} = 'running', ${name(a.startedAt)} = ${p.now} WHERE ${a.id} = ${p.id} AND ${a.outcome} = 'queued'`,
  );
  const requeue = d.prepare<{ now: number }>(
    (p) =>
      sql`UPDATE ${a} SET ${name(a.outcome)} = 'queued', ${name(a.startedAt)} = NULL, ${name(a.dueAt)} = MIN(${a.dueAt}, ${p.now}) WHERE ${a.outcome} = 'running'`,
  );

  return sharedAttemptQueue(d, {
    held: sql``,
    unheld: sql``,
    latest: (hookId) => latest.all({ hookId }),
    async latestOf(ids) {
      return ids.length === 0 ? [] : latestOf.all({ ids });
    },
    // In a transaction of its own (a turn of the connection): the count and the claims see one state.
    claimDue: (handler, now, limit, concurrency) =>
      d.transaction(async () => {
        const n = Math.min(limit, concurrency - (await running.get({ handler }))!.n);
        if (n <= 0) return [];
        const rows = await due.all({ handler, now, limit: n });
        for (const r of rows) await claim.run({ id: r.id, now }), (r.outcome = "running"), (r.startedAt = now);
        return rows;
      }),
    // Attempts left `running` by a process that stopped mid-attempt go back to the queue, due now:
    // they never recorded success, so running them again is the at-least-once promise.
    requeueInterrupted: (now) => requeue.run({ now }),
    renew: async () => {},
    takeOver: async () => 0,
  });
}
