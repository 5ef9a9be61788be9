import { sql, type SQL } from "drizzle-orm";
import { attempts } from "../../schema/pg";
import { name, pgDialect } from "../stores/dialect";
import { attemptFields, createAttemptQueue } from "../stores/attempts";
import type { AttemptQueue } from "../../runner/queue";
import type { PgTransactor } from "./transactor";

/**
 * AttemptQueue's PostgreSQL side, for several instances on one database (pg-boss and
 * graphile-worker style): its own parts (db/stores/attempts.ts says which, and why; SQLite's are in
 * db/sqlite/attempt-queue.ts) under the statements written once for both backends. An instance
 * claims due attempts with `FOR UPDATE SKIP LOCKED` and holds them under a lease it renews while
 * they run; an attempt whose lease expired (its instance died or lost the database) goes back to
 * the queue for any instance. An instance records the outcome only of attempts it still holds, so
 * an attempt taken over is recorded once.
 *
 * A handler's concurrency is global: claims of one handler take a transaction-scoped advisory lock
 * on its name, count what runs under a live lease, and claim only what is left.
 */
export function createPgAttemptQueue(t: PgTransactor, opts: { owner: string; leaseMs: number }): AttemptQueue {
  const d = pgDialect(t);
  const { owner, leaseMs } = opts;
  const a = attempts;
  const row = attemptFields(d.tables.attempts);
  const unheld = sql`, ${name(a.leaseOwner)} = NULL, ${name(a.leaseUntil)} = NULL`;
  // DISTINCT ON: the first row of each handler in the (hook_id, handler, attempt) index's order.
  const latest = d.query<typeof row, { hookId: string }>(
    row,
    (cols, p) => sql`SELECT DISTINCT ON (${a.handler}) ${cols} FROM ${a} WHERE ${a.hookId} = ${p.hookId} ORDER BY ${a.handler}, ${a.attempt} DESC`,
  );
  const latestOf = d.query<typeof row, { ids: readonly string[] }>(
    row,
    (cols, p) =>
      sql`SELECT DISTINCT ON (${a.hookId}, ${a.handler}) ${cols} FROM ${a} WHERE ${d.anyOf(a.hookId, p.ids)} ORDER BY ${a.hookId}, ${a.handler}, ${a.attempt} DESC`,
  );
  const running = d.query<{ n: SQL<number> }, { handler: string; now: number }>(
    { n: sql<number>`COUNT(*)`.mapWith(Number) },
    (cols, p) => sql`SELECT ${cols} FROM ${a} WHERE ${a.outcome} = 'running' AND ${a.handler} = ${p.handler} AND ${a.leaseUntil} > ${p.now}`,
  );
  const claim = d.query<typeof row, { handler: string; now: number; until: number; limit: number }>(
    row,
    (
      cols,
      p,
    ) => sql`UPDATE ${a} SET ${name(a.outcome)} = 'running', ${name(a.startedAt)} = ${p.now}, ${name(a.leaseOwner)} = ${owner}, ${name(a.leaseUntil)} = ${p.until}
      WHERE ${a.id} IN (
        SELECT ${a.id} FROM ${a} WHERE ${a.outcome} = 'queued' AND ${a.handler} = ${p.handler} AND ${a.dueAt} <= ${p.now}
        ORDER BY ${a.dueAt}, ${a.id} LIMIT ${p.limit} FOR UPDATE SKIP LOCKED
      ) RETURNING ${cols}`,
  );
  const requeue = d.prepare<{ now: number }>(
    (p) => sql`UPDATE ${a} SET ${name(a.outcome)} = 'queued', ${name(a.startedAt)} = NULL${unheld}, ${name(a.dueAt)} = LEAST(${a.dueAt}, ${p.now})
      WHERE ${a.outcome} = 'running' AND (${a.leaseUntil} IS NULL OR ${a.leaseUntil} < ${p.now})`,
  );
  const renew = d.prepare<{ until: number }>(
    (p) => sql`UPDATE ${a} SET ${name(a.leaseUntil)} = ${p.until} WHERE ${a.outcome} = 'running' AND ${a.leaseOwner} = ${owner}`,
  );
  const takeOver = d.prepare<{ handler: string }>(
    (p) => sql`UPDATE ${a} SET ${name(a.outcome)} = 'queued', ${name(a.startedAt)} = NULL${unheld}
      WHERE ${a.outcome} = 'running' AND ${a.handler} = ${p.handler} AND ${a.leaseOwner} <> ${owner}`,
  );

  return createAttemptQueue(d, {
    leaseMs,
    held: sql` AND ${a.leaseOwner} = ${owner}`,
    unheld,
    latest: (hookId) => latest.all({ hookId }),
    async latestOf(ids) {
      return ids.length === 0 ? [] : latestOf.all({ ids });
    },
    claimDue: (handler, now, limit, concurrency) =>
      d.transaction(async () => {
        let n = limit;
        if (Number.isFinite(concurrency)) {
          await d.lock("handler", handler);
          n = Math.min(limit, concurrency - (await running.get({ handler, now }))!.n);
        }
        if (n <= 0) return [];
        return claim.all({ handler, now, until: now + leaseMs, limit: n });
      }),
    requeueInterrupted: (now) => requeue.run({ now }),
    async renew(now) {
      await renew.run({ until: now + leaseMs });
    },
    takeOver: (handler) => takeOver.run({ handler }),
  });
}
