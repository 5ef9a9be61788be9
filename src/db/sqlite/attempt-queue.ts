import type { Database } from "bun:sqlite";
import { statementCache } from "./statements";
import type { Db } from "./open";
import { sqliteTransactor } from "../transactor";
import type { AttemptResult } from "../../runner/handlers";
import type { AttemptQueue, AttemptRow, Outcome } from "../../runner/queue";

const COLUMNS = `id, hook_id AS hookId, handler, attempt, round_start AS roundStart, outcome, due_at AS dueAt,
  started_at AS startedAt, finished_at AS finishedAt, http_status AS httpStatus, exit_code AS exitCode, excerpt, error, resigned, chaos`;

/** The SQLite side of AttemptQueue (runner/queue.ts). */
export function createAttemptQueue(db: Db): AttemptQueue {
  const sql: Database = db.$client;
  const q = statementCache(sql);
  const transactor = sqliteTransactor(sql);
  const insert = (hookId: string, handler: string, attempt: number, roundStart: number, dueAt: number) =>
    q(`INSERT INTO attempts (hook_id, handler, attempt, round_start, outcome, due_at) VALUES (?, ?, ?, ?, 'queued', ?)`).run(
      hookId,
      handler,
      attempt,
      roundStart,
      dueAt,
    );

  return {
    dialect: "sqlite",
    transaction: transactor.transaction,

    /** In transaction: the first attempt of a new round (1 for a caught hook, last + 1 after RetryHook). */
    async queueRound(hookId: string, handler: string, lastAttempt: number, dueAt: number): Promise<void> {
      insert(hookId, handler, lastAttempt + 1, lastAttempt + 1, dueAt);
    },

    /** In transaction: the attempt after a failed one, in the same round. */
    async queueNext(row: AttemptRow, dueAt: number): Promise<void> {
      insert(row.hookId, row.handler, row.attempt + 1, row.roundStart, dueAt);
    },

    /** The latest attempt of each handler of the hook. */
    async latest(hookId: string): Promise<AttemptRow[]> {
      return q(
        `SELECT ${COLUMNS} FROM attempts a WHERE hook_id = ?
         AND attempt = (SELECT MAX(attempt) FROM attempts b WHERE b.hook_id = a.hook_id AND b.handler = a.handler)
         ORDER BY handler`,
      ).all(hookId) as AttemptRow[];
    },

    async latestOf(hookIds: readonly string[]): Promise<AttemptRow[]> {
      if (hookIds.length === 0) return [];
      return q(
        `SELECT ${COLUMNS} FROM attempts a WHERE hook_id IN (SELECT value FROM json_each(?))
         AND attempt = (SELECT MAX(attempt) FROM attempts b WHERE b.hook_id = a.hook_id AND b.handler = a.handler)
         ORDER BY hook_id, handler`,
      ).all(JSON.stringify(hookIds)) as AttemptRow[];
    },

    /** Every channel that holds hooks or was declared (the channels table). */
    async channelNames(): Promise<string[]> {
      return (q(`SELECT name FROM channels`).all() as { name: string }[]).map((r) => r.name);
    },

    /**
     * A first attempt of `handler` for each pending hook of the channel that never had one (caught
     * before the handler was configured). Returns how many were queued.
     */
    async queueUnattempted(channel: string, handler: string, now: number): Promise<number> {
      return q(
        `INSERT INTO attempts (hook_id, handler, attempt, round_start, outcome, due_at)
         SELECT id, ?, 1, 1, 'queued', ? FROM hooks h WHERE channel = ? AND status = 'pending'
         AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.hook_id = h.id AND a.handler = ?)`,
      ).run(handler, now, channel, handler).changes;
    },

    /** In transaction: cancels every queued attempt of the hook. */
    async cancel(hookId: string, now: number): Promise<void> {
      q(`UPDATE attempts SET outcome = 'cancelled', finished_at = ? WHERE hook_id = ? AND outcome = 'queued'`).run(now, hookId);
    },

    /**
     * In transaction: cancels the queued attempts of the channel's hooks up to `upTo` (a channel
     * being deleted). It walks the queued attempts (few) and looks each one's hook up by id.
     */
    async cancelChannel(channel: string, upTo: string, now: number): Promise<void> {
      q(
        `UPDATE attempts SET outcome = 'cancelled', finished_at = ?
         WHERE outcome = 'queued' AND hook_id <= ? AND (SELECT channel FROM hooks WHERE id = attempts.hook_id) = ?`,
      ).run(now, upTo, channel);
    },

    async endHandler(handler: string, error: string, now: number, limit: number): Promise<string[]> {
      return (
        q(
          `UPDATE attempts SET outcome = 'cancelled', finished_at = ?, error = ?
           WHERE id IN (SELECT id FROM attempts WHERE outcome IN ('queued', 'running') AND handler = ? LIMIT ?) RETURNING hook_id AS hookId`,
        ).all(now, error, handler, limit) as { hookId: string }[]
      ).map((r) => r.hookId);
    },

    // In its own transaction (a turn of the connection): the count and the claims see one state.
    claimDue: (handler: string, now: number, limit: number, concurrency: number): Promise<AttemptRow[]> =>
      transactor.transaction(async () => {
        const running = (q(`SELECT COUNT(*) AS n FROM attempts WHERE outcome = 'running' AND handler = ?`).get(handler) as { n: number }).n;
        const n = Math.min(limit, concurrency - running);
        if (n <= 0) return [];
        const rows = q(`SELECT ${COLUMNS} FROM attempts WHERE outcome = 'queued' AND handler = ? AND due_at <= ? ORDER BY due_at, id LIMIT ?`).all(
          handler,
          now,
          n,
        ) as AttemptRow[];
        const claim = q(`UPDATE attempts SET outcome = 'running', started_at = ? WHERE id = ? AND outcome = 'queued'`);
        for (const row of rows) claim.run(now, row.id), (row.outcome = "running"), (row.startedAt = now);
        return rows;
      }),

    /** Names of the handlers with queued attempts and the earliest due time of each. */
    async nextDue(): Promise<Map<string, number>> {
      // A loose index scan: one index seek per handler, instead of GROUP BY walking every queued
      // attempt (a relay's backlog of 100,000 made each turn of the runner's loop read them all).
      const rows = q(
        `WITH RECURSIVE h(name) AS (
           SELECT MIN(handler) FROM attempts WHERE outcome = 'queued'
           UNION ALL SELECT (SELECT MIN(handler) FROM attempts WHERE outcome = 'queued' AND handler > h.name) FROM h WHERE h.name IS NOT NULL
         )
         SELECT name AS handler, (SELECT MIN(due_at) FROM attempts WHERE outcome = 'queued' AND handler = h.name) AS dueAt FROM h WHERE name IS NOT NULL`,
      ).all() as {
        handler: string;
        dueAt: number;
      }[];
      return new Map(rows.map((r) => [r.handler, r.dueAt]));
    },

    /** In transaction: running -> outcome with what the attempt produced; false when the row is gone. */
    async finish(id: number, outcome: Outcome, result: AttemptResult, now: number): Promise<boolean> {
      return (
        q(
          `UPDATE attempts SET outcome = ?, finished_at = ?, http_status = ?, exit_code = ?, excerpt = ?, error = ?, resigned = ?, chaos = ?
           WHERE id = ? AND outcome = 'running'`,
        ).run(outcome, now, result.httpStatus ?? null, result.exitCode ?? null, result.excerpt, result.error, result.resigned ?? null, result.chaos ?? null, id)
          .changes > 0
      );
    },

    /**
     * Attempts left `running` by a process that stopped mid-attempt go back to the queue, due now:
     * they never recorded success, so running them again is the at-least-once promise.
     */
    async requeueInterrupted(now: number): Promise<number> {
      return q(`UPDATE attempts SET outcome = 'queued', started_at = NULL, due_at = MIN(due_at, ?) WHERE outcome = 'running'`).run(now).changes;
    },

    async renew(): Promise<void> {},

    async release(id: number): Promise<boolean> {
      return q(`UPDATE attempts SET outcome = 'queued', started_at = NULL WHERE id = ? AND outcome = 'running'`).run(id).changes > 0;
    },

    async takeOver(): Promise<number> {
      return 0;
    },

    async backlog(handler: string) {
      const r = q(`SELECT COUNT(*) AS count, MIN(due_at) AS oldest FROM attempts WHERE outcome IN ('queued', 'running') AND handler = ?`).get(handler) as {
        count: number;
        oldest: number | null;
      };
      return { count: r.count, oldest: r.oldest };
    },

    /** How many attempts are queued (walks the queue index's `queued` range, not the table). */
    async depth(): Promise<number> {
      return (q(`SELECT COUNT(*) AS n FROM attempts WHERE outcome = 'queued'`).get() as { n: number }).n;
    },

    /** Every attempt of the hook, in the order they were queued. */
    async list(hookId: string): Promise<AttemptRow[]> {
      return q(`SELECT ${COLUMNS} FROM attempts WHERE hook_id = ? ORDER BY id`).all(hookId) as AttemptRow[];
    },
  };
}
