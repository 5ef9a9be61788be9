import type { AttemptQueue, AttemptRow } from "../../runner/queue";
import type { PgTransactor } from "./transactor";

/**
 * PostgreSQL's side of AttemptQueue, for several instances on one database (pg-boss and
 * graphile-worker style): an instance claims due attempts with `FOR UPDATE SKIP LOCKED` and holds
 * them under a lease it renews while they run; an attempt whose lease expired (its instance died
 * or lost the database) goes back to the queue for any instance. An instance records the outcome
 * only of attempts it still holds, so an attempt taken over is recorded once.
 *
 * A handler's concurrency is global: claims of one handler take a transaction-scoped advisory lock
 * on its name, count what runs under a live lease, and claim only what is left.
 */
const COLUMNS = `id::float8 AS id, hook_id AS "hookId", handler, attempt, round_start AS "roundStart", outcome,
  due_at::float8 AS "dueAt", started_at::float8 AS "startedAt", finished_at::float8 AS "finishedAt",
  http_status AS "httpStatus", exit_code AS "exitCode", excerpt, error, resigned, chaos`;

/** Advisory lock keys live in one namespace per purpose (the first int4 of the two-key form). */
export const LOCK_SPACE = { migrations: 1, handler: 2, singleton: 3, translateAccountIds: 4 } as const;

export function createPgAttemptQueue(t: PgTransactor, opts: { owner: string; leaseMs: number }): AttemptQueue {
  const x = () => t.exec();
  const { owner, leaseMs } = opts;
  const insert = (hookId: string, handler: string, attempt: number, roundStart: number, dueAt: number) =>
    t.write(`INSERT INTO attempts (hook_id, handler, attempt, round_start, outcome, due_at) VALUES ($1, $2, $3, $4, 'queued', $5)`, [
      hookId,
      handler,
      attempt,
      roundStart,
      dueAt,
    ]);

  return {
    dialect: "postgres",
    transaction: t.transaction,
    leaseMs,

    async queueRound(hookId, handler, lastAttempt, dueAt) {
      await insert(hookId, handler, lastAttempt + 1, lastAttempt + 1, dueAt);
    },

    async queueNext(row, dueAt) {
      await insert(row.hookId, row.handler, row.attempt + 1, row.roundStart, dueAt);
    },

    async latest(hookId) {
      return (await x().unsafe(`SELECT DISTINCT ON (handler) ${COLUMNS} FROM attempts WHERE hook_id = $1 ORDER BY handler, attempt DESC`, [
        hookId,
      ])) as AttemptRow[];
    },

    async latestOf(hookIds) {
      if (hookIds.length === 0) return [];
      return (await x().unsafe(
        `SELECT DISTINCT ON (hook_id, handler) ${COLUMNS} FROM attempts WHERE hook_id = ANY($1::text[]) ORDER BY hook_id, handler, attempt DESC`,
        [hookIds],
      )) as AttemptRow[];
    },

    async endHandler(handler, error, now, limit) {
      const rows = (await x().unsafe(
        `UPDATE attempts SET outcome = 'cancelled', finished_at = $1, error = $2, lease_owner = NULL, lease_until = NULL
         WHERE id IN (SELECT id FROM attempts WHERE outcome IN ('queued', 'running') AND handler = $3 LIMIT $4) RETURNING hook_id AS "hookId"`,
        [now, error, handler, limit],
      )) as { hookId: string }[];
      return rows.map((r) => r.hookId);
    },

    async takeOver(handler) {
      return (
        await x().unsafe(
          `UPDATE attempts SET outcome = 'queued', started_at = NULL, lease_owner = NULL, lease_until = NULL
           WHERE outcome = 'running' AND handler = $1 AND lease_owner <> $2`,
          [handler, owner],
        )
      ).count;
    },

    async channelNames() {
      return ((await x().unsafe(`SELECT name FROM channels`)) as { name: string }[]).map((r) => r.name);
    },

    // Instances attach a handler at once (a relay key made at run time): the handler's lock makes
    // the second wait, and its statement (a snapshot of its own) then sees the first's attempts.
    queueUnattempted(channel, handler, now) {
      return t.transaction(async () => {
        await x().unsafe(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [LOCK_SPACE.handler, handler]);
        return (
          await x().unsafe(
            `INSERT INTO attempts (hook_id, handler, attempt, round_start, outcome, due_at)
           SELECT id, $1, 1, 1, 'queued', $2 FROM hooks h WHERE channel = $3 AND status = 'pending'
           AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.hook_id = h.id AND a.handler = $1)`,
            [handler, now, channel],
          )
        ).count;
      });
    },

    async cancel(hookId, now) {
      await x().unsafe(`UPDATE attempts SET outcome = 'cancelled', finished_at = $1 WHERE hook_id = $2 AND outcome = 'queued'`, [now, hookId]);
    },

    async cancelChannel(channel, upTo, now) {
      await x().unsafe(
        `UPDATE attempts SET outcome = 'cancelled', finished_at = $1 WHERE outcome = 'queued' AND hook_id <= $2
         AND hook_id IN (SELECT id FROM hooks WHERE channel = $3 AND id <= $2)`,
        [now, upTo, channel],
      );
    },

    claimDue(handler, now, limit, concurrency) {
      return t.transaction(async () => {
        let n = limit;
        if (Number.isFinite(concurrency)) {
          await x().unsafe(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [LOCK_SPACE.handler, handler]);
          const [r] = (await x().unsafe(`SELECT COUNT(*)::float8 AS n FROM attempts WHERE outcome = 'running' AND handler = $1 AND lease_until > $2`, [
            handler,
            now,
          ])) as { n: number }[];
          n = Math.min(limit, concurrency - (r?.n ?? 0));
        }
        if (n <= 0) return [];
        return (await x().unsafe(
          `UPDATE attempts SET outcome = 'running', started_at = $1, lease_owner = $2, lease_until = $3
           WHERE id IN (
             SELECT id FROM attempts WHERE outcome = 'queued' AND handler = $4 AND due_at <= $1
             ORDER BY due_at, id LIMIT $5 FOR UPDATE SKIP LOCKED
           ) RETURNING ${COLUMNS}`,
          [now, owner, now + leaseMs, handler, n],
        )) as AttemptRow[];
      });
    },

    async nextDue() {
      // A loose index scan (one seek per handler) rather than GROUP BY over every queued attempt.
      const rows = (await x().unsafe(
        `WITH RECURSIVE h(name) AS (
           SELECT MIN(handler) FROM attempts WHERE outcome = 'queued'
           UNION ALL SELECT (SELECT MIN(a.handler) FROM attempts a WHERE a.outcome = 'queued' AND a.handler > h.name) FROM h WHERE h.name IS NOT NULL
         )
         SELECT name AS handler, (SELECT MIN(due_at) FROM attempts WHERE outcome = 'queued' AND handler = h.name)::float8 AS "dueAt" FROM h WHERE name IS NOT NULL`,
      )) as {
        handler: string;
        dueAt: number;
      }[];
      return new Map(rows.map((r) => [r.handler, r.dueAt]));
    },

    async finish(id, outcome, result, now) {
      return (
        (
          await x().unsafe(
            `UPDATE attempts SET outcome = $1, finished_at = $2, http_status = $3, exit_code = $4, excerpt = $5, error = $6,
           resigned = $9, chaos = $10, lease_owner = NULL, lease_until = NULL
         WHERE id = $7 AND outcome = 'running' AND lease_owner = $8`,
            [
              outcome,
              now,
              result.httpStatus ?? null,
              result.exitCode ?? null,
              result.excerpt,
              result.error,
              id,
              owner,
              result.resigned ?? null,
              result.chaos ?? null,
            ],
          )
        ).count > 0
      );
    },

    async requeueInterrupted(now) {
      return (
        await x().unsafe(
          `UPDATE attempts SET outcome = 'queued', started_at = NULL, lease_owner = NULL, lease_until = NULL, due_at = LEAST(due_at, $1)
         WHERE outcome = 'running' AND (lease_until IS NULL OR lease_until < $1)`,
          [now],
        )
      ).count;
    },

    async renew(now) {
      await x().unsafe(`UPDATE attempts SET lease_until = $1 WHERE outcome = 'running' AND lease_owner = $2`, [now + leaseMs, owner]);
    },

    async depth() {
      const [r] = (await x().unsafe(`SELECT COUNT(*)::float8 AS n FROM attempts WHERE outcome = 'queued'`)) as { n: number }[];
      return r?.n ?? 0;
    },

    async release(id) {
      const r = await x().unsafe(
        `UPDATE attempts SET outcome = 'queued', started_at = NULL, lease_owner = NULL, lease_until = NULL WHERE id = $1 AND outcome = 'running' AND lease_owner = $2`,
        [id, owner],
      );
      return r.count > 0;
    },
    async backlog(handler) {
      const [r] = (await x().unsafe(
        `SELECT COUNT(*)::float8 AS count, MIN(due_at)::float8 AS oldest FROM attempts WHERE outcome IN ('queued', 'running') AND handler = $1`,
        [handler],
      )) as { count: number; oldest: number | null }[];
      return { count: r!.count, oldest: r!.oldest };
    },
    async list(hookId) {
      return (await x().unsafe(`SELECT ${COLUMNS} FROM attempts WHERE hook_id = $1 ORDER BY id`, [hookId])) as AttemptRow[];
    },
  };
}
