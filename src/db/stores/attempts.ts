import { sql, type SQL } from "drizzle-orm";
import type { AttemptQueue, Outcome } from "../../runner/queue";
import { name, names, type Dialect } from "./dialect";

/** The attempts table as a shared statement sees it (the columns both backends have). */
type Attempts = Dialect["tables"]["attempts"];

/**
 * The fields of an AttemptRow, by the schema's columns: PostgreSQL's lease columns are left out
 * (the runner never sees them), so a row reads the same on both backends. (The queue's methods
 * return these rows as AttemptRow: the compiler holds the two to one shape.)
 */
export function attemptFields(a: Attempts) {
  return {
    id: a.id,
    hookId: a.hookId,
    handler: a.handler,
    attempt: a.attempt,
    roundStart: a.roundStart,
    outcome: a.outcome,
    dueAt: a.dueAt,
    startedAt: a.startedAt,
    finishedAt: a.finishedAt,
    httpStatus: a.httpStatus,
    exitCode: a.exitCode,
    excerpt: a.excerpt,
    error: a.error,
    resigned: a.resigned,
    chaos: a.chaos,
  };
}

/**
 * What each backend keeps its own way, written per backend beside each other (db/sqlite/attempt-queue.ts,
 * db/pg/attempt-queue.ts) over the same dialect layer and row fields; the methods are AttemptQueue's
 * of the same names:
 * - claims (`claimDue`): SQLite's data file is one process's and its transactions take turns, so it
 *   counts what runs and claims row by row; PostgreSQL's instances claim at once, so a handler's
 *   claims take an advisory lock on its name, count what runs under a live lease and claim with
 *   `FOR UPDATE SKIP LOCKED` under a lease of this instance;
 * - the lease (`requeueInterrupted`, `renew`, `takeOver`, `leaseMs`): on SQLite every running
 *   attempt is this process's, so those left running at start are queued again and nothing is
 *   renewed or taken over; on PostgreSQL an attempt comes back when its lease expired, and a
 *   relay's listener connecting here takes over the attempts another instance runs for it;
 * - `held` and `unheld`, the fragments by which the shared statements that end a claim (finish,
 *   release, endHandler) keep to the lease: on PostgreSQL only this instance's claims are its own
 *   to end, and an ended one lets its lease go; on SQLite both are empty;
 * - the latest attempt of each handler (`latest`, `latestOf`): PostgreSQL's DISTINCT ON reads the
 *   (hook_id, handler, attempt) index once per handler; SQLite lacks it and compares each row with
 *   its handler's MAX(attempt), one seek of the same index.
 */
export type AttemptBackend = Pick<AttemptQueue, "latest" | "latestOf" | "claimDue" | "requeueInterrupted" | "renew" | "takeOver" | "leaseMs"> & {
  /** ` AND <the attempt is claimed by this process>`, after a WHERE on attempts. */
  readonly held: SQL;
  /** `, <its claim let go>`, after an UPDATE's SET on attempts that ends a claim. */
  readonly unheld: SQL;
};

/**
 * AttemptQueue on either backend (runner/queue.ts says what each method does): what is the same
 * text on both is written once here, each statement prepared when the queue is made (queueRound
 * runs for each caught hook of a channel with handlers); the rest is the backend's (above).
 */
export function createAttemptQueue(d: Dialect, own: AttemptBackend): AttemptQueue {
  const { attempts: a, hooks: h, channels: c } = d.tables;
  const row = attemptFields(a);
  const queued = sql`${a.outcome} = 'queued'`;

  type New = { hookId: string; handler: string; attempt: number; roundStart: number; dueAt: number };
  const insert = d.prepare<New>(
    (p) => sql`INSERT INTO ${a} ${names(a.hookId, a.handler, a.attempt, a.roundStart, a.outcome, a.dueAt)}
      VALUES (${p.hookId}, ${p.handler}, ${p.attempt}, ${p.roundStart}, 'queued', ${p.dueAt})`,
  );
  const channelNames = d.query({ name: c.name }, (cols) => sql`SELECT ${cols} FROM ${c}`);
  // Hooks caught before the handler was configured (or a relay's key made): a first attempt each.
  const queueUnattempted = d.prepare<{ channel: string; handler: string; now: number }>(
    (p) => sql`INSERT INTO ${a} ${names(a.hookId, a.handler, a.attempt, a.roundStart, a.outcome, a.dueAt)}
      SELECT ${h.id}, ${p.handler}, 1, 1, 'queued', ${p.now} FROM ${h} WHERE ${h.channel} = ${p.channel} AND ${h.status} = 'pending'
      AND NOT EXISTS (SELECT 1 FROM ${a} WHERE ${a.hookId} = ${h.id} AND ${a.handler} = ${p.handler})`,
  );
  const cancel = d.prepare<{ hookId: string; now: number }>(
    (p) => sql`UPDATE ${a} SET ${name(a.outcome)} = 'cancelled', ${name(a.finishedAt)} = ${p.now} WHERE ${a.hookId} = ${p.hookId} AND ${queued}`,
  );
  // It walks the queued attempts (few) and looks each one's hook up by id: SQLite runs the EXISTS
  // as a seek per attempt, PostgreSQL plans it as a semi-join.
  const cancelChannel = d.prepare<{ channel: string; upTo: string; now: number }>(
    (p) => sql`UPDATE ${a} SET ${name(a.outcome)} = 'cancelled', ${name(a.finishedAt)} = ${p.now}
      WHERE ${queued} AND ${a.hookId} <= ${p.upTo} AND EXISTS (SELECT 1 FROM ${h} WHERE ${h.id} = ${a.hookId} AND ${h.channel} = ${p.channel})`,
  );
  const endHandler = d.query<{ hookId: typeof a.hookId }, { handler: string; error: string; now: number; limit: number }>(
    { hookId: a.hookId },
    (cols, p) => sql`UPDATE ${a} SET ${name(a.outcome)} = 'cancelled', ${name(a.finishedAt)} = ${p.now}, ${name(a.error)} = ${p.error}${own.unheld}
      WHERE ${a.id} IN (SELECT ${a.id} FROM ${a} WHERE ${a.outcome} IN ('queued', 'running') AND ${a.handler} = ${p.handler} LIMIT ${p.limit})
      RETURNING ${cols}`,
  );
  // A loose index scan: one index seek per handler, instead of GROUP BY walking every queued
  // attempt (a relay's backlog of 100,000 made each turn of the runner's loop read them all).
  const nextDue = d.query(
    {
      handler: sql<string>`name`,
      dueAt: sql<number>`(SELECT MIN(${a.dueAt}) FROM ${a} WHERE ${queued} AND ${a.handler} = h.name)`.mapWith(a.dueAt),
    },
    (cols) => sql`WITH RECURSIVE h(name) AS (
        SELECT MIN(${a.handler}) FROM ${a} WHERE ${queued}
        UNION ALL SELECT (SELECT MIN(${a.handler}) FROM ${a} WHERE ${queued} AND ${a.handler} > h.name) FROM h WHERE h.name IS NOT NULL
      )
      SELECT ${cols} FROM h WHERE name IS NOT NULL`,
  );
  const finish = d.prepare<
    { id: number; outcome: Outcome; now: number } & Record<"httpStatus" | "exitCode", number | null> &
      Record<"excerpt" | "error", string> &
      Record<"resigned" | "chaos", string | null>
  >(
    (p) => sql`UPDATE ${a} SET ${name(a.outcome)} = ${p.outcome}, ${name(a.finishedAt)} = ${p.now}, ${name(a.httpStatus)} = ${p.httpStatus},
      ${name(a.exitCode)} = ${p.exitCode}, ${name(a.excerpt)} = ${p.excerpt}, ${name(a.error)} = ${p.error}, ${name(a.resigned)} = ${p.resigned},
      ${name(a.chaos)} = ${p.chaos}${own.unheld}
      WHERE ${a.id} = ${p.id} AND ${a.outcome} = 'running'${own.held}`,
  );
  const release = d.prepare<{ id: number }>(
    (p) => sql`UPDATE ${a} SET ${name(a.outcome)} = 'queued', ${name(a.startedAt)} = NULL${own.unheld}
      WHERE ${a.id} = ${p.id} AND ${a.outcome} = 'running'${own.held}`,
  );
  // The queue index's `queued` range, not the table.
  const depth = d.query({ n: sql<number>`COUNT(*)`.mapWith(Number) }, (cols) => sql`SELECT ${cols} FROM ${a} WHERE ${queued}`);
  const backlog = d.query<{ count: SQL<number>; oldest: SQL<number | null> }, { handler: string }>(
    { count: sql<number>`COUNT(*)`.mapWith(Number), oldest: sql<number | null>`MIN(${a.dueAt})`.mapWith(a.dueAt) },
    (cols, p) => sql`SELECT ${cols} FROM ${a} WHERE ${a.outcome} IN ('queued', 'running') AND ${a.handler} = ${p.handler}`,
  );
  const list = d.query<typeof row, { hookId: string }>(row, (cols, p) => sql`SELECT ${cols} FROM ${a} WHERE ${a.hookId} = ${p.hookId} ORDER BY ${a.id}`);

  return {
    dialect: d.dialect,
    transaction: d.transaction,
    leaseMs: own.leaseMs,
    // Sent, not run: queueRound is made for each caught hook inside its batch (a caught batch's
    // statements on PostgreSQL are not read, db/pg/transactor.ts writes()).
    queueRound: (hookId, handler, lastAttempt, dueAt) => insert.send({ hookId, handler, attempt: lastAttempt + 1, roundStart: lastAttempt + 1, dueAt }),
    queueNext: (r, dueAt) => insert.send({ hookId: r.hookId, handler: r.handler, attempt: r.attempt + 1, roundStart: r.roundStart, dueAt }),
    latest: own.latest,
    latestOf: own.latestOf,
    async channelNames() {
      return (await channelNames.all({})).map((r) => r.name);
    },
    // Instances attach a handler at once (a relay key made at run time): the handler's lock makes
    // the second wait (PostgreSQL), and its statement then sees the first's attempts.
    queueUnattempted: (channel, handler, now) =>
      d.transaction(async () => {
        await d.lock("handler", handler);
        return queueUnattempted.run({ channel, handler, now });
      }),
    async cancel(hookId, now) {
      await cancel.run({ hookId, now });
    },
    async cancelChannel(channel, upTo, now) {
      await cancelChannel.run({ channel, upTo, now });
    },
    async endHandler(handler, error, now, limit) {
      return (await endHandler.all({ handler, error, now, limit })).map((r) => r.hookId);
    },
    claimDue: own.claimDue,
    async nextDue() {
      return new Map((await nextDue.all({})).map((r) => [r.handler, r.dueAt]));
    },
    async finish(id, outcome, result, now) {
      const { httpStatus = null, exitCode = null, excerpt, error, resigned = null, chaos = null } = result;
      return (await finish.run({ id, outcome, now, httpStatus, exitCode, excerpt, error, resigned, chaos })) > 0;
    },
    requeueInterrupted: own.requeueInterrupted,
    renew: own.renew,
    async depth() {
      return (await depth.get({}))!.n;
    },
    release: async (id) => (await release.run({ id })) > 0,
    takeOver: own.takeOver,
    async backlog(handler) {
      const r = (await backlog.get({ handler }))!;
      return { count: r.count, oldest: r.oldest };
    },
    list: (hookId) => list.all({ hookId }),
  };
}
