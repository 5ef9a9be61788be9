import { sql } from "drizzle-orm";
import type { IssueNotice } from "../../notify/notice";
import type { NoticeRow, NoticeState, NoticeStore, NotifierCounts } from "../../notify/store";
import { columnsOf, excluded, name, names, rowValues, type Dialect } from "./dialect";

/**
 * NoticeStore on either backend (notify/store.ts says what each method returns). A claim and the
 * outcomes after it are compare-and-sets on the notice's attempts (one UPDATE each: atomic on both
 * backends, the loser of a race changes nothing); `add` holds a per-notifier lock while it counts
 * and drops (an advisory lock on PostgreSQL; SQLite's transactions take turns), so two instances
 * queueing at once keep the limit. A notice's outcome and its notifier's counts change together.
 */
export function createNoticeStore(d: Dialect): NoticeStore {
  const n = d.tables.notices;
  const s = d.tables.notifierStats;
  const cols = columnsOf(n);
  type Stored = Omit<NoticeRow, "notice" | "state"> & { notice: string; state: string };
  const fromRow = (row: Stored): NoticeRow => ({ ...row, notice: JSON.parse(row.notice) as IssueNotice, state: row.state as NoticeState });

  const insert = d.prepare<Stored>(() => sql`INSERT INTO ${n} ${rowValues(n)}`);
  const queuedOf = d.query<{ n: ReturnType<typeof count> }, { notifier: string }>(
    { n: count() },
    (list, p) => sql`SELECT ${list} FROM ${n} WHERE ${n.notifier} = ${p.notifier} AND ${n.state} = 'queued'`,
  );
  const untried = d.query<{ id: typeof n.id }, { notifier: string }>(
    { id: n.id },
    (list, p) => sql`SELECT ${list} FROM ${n} WHERE ${n.notifier} = ${p.notifier} AND ${n.state} = 'queued' AND ${n.attempts} = 0 ORDER BY ${n.id} LIMIT 1`,
  );
  const remove = d.prepare<{ id: string }>((p) => sql`DELETE FROM ${n} WHERE ${n.id} = ${p.id} AND ${n.state} = 'queued' AND ${n.attempts} = 0`);
  const next = d.query<typeof cols, { notifier: string }>(
    cols,
    (list, p) => sql`SELECT ${list} FROM ${n} WHERE ${n.notifier} = ${p.notifier} AND ${n.state} = 'queued' ORDER BY ${n.id} LIMIT 1`,
  );
  const claim = d.prepare<{ id: string; attempts: number; now: number; until: number }>(
    (p) => sql`UPDATE ${n} SET ${name(n.attempts)} = ${n.attempts} + 1, ${name(n.nextAttemptAt)} = ${p.until}
      WHERE ${n.id} = ${p.id} AND ${n.state} = 'queued' AND ${n.attempts} = ${p.attempts} AND ${n.nextAttemptAt} <= ${p.now}`,
  );
  /** A claimed attempt's outcome: the notice's notifier when the claim still held. */
  const finish = d.query<{ notifier: typeof n.notifier }, { id: string; attempt: number; state: string; at: number }>(
    { notifier: n.notifier },
    (list, p) => sql`UPDATE ${n} SET ${name(n.state)} = ${p.state}, ${name(n.doneAt)} = ${p.at}
      WHERE ${n.id} = ${p.id} AND ${n.state} = 'queued' AND ${n.attempts} = ${p.attempt} RETURNING ${list}`,
  );
  const retry = d.query<{ notifier: typeof n.notifier }, { id: string; attempt: number; error: string; retryAt: number }>(
    { notifier: n.notifier },
    (list, p) => sql`UPDATE ${n} SET ${name(n.lastError)} = ${p.error}, ${name(n.nextAttemptAt)} = ${p.retryAt}
      WHERE ${n.id} = ${p.id} AND ${n.state} = 'queued' AND ${n.attempts} = ${p.attempt} RETURNING ${list}`,
  );
  const errorOf = d.prepare<{ id: string; error: string }>((p) => sql`UPDATE ${n} SET ${name(n.lastError)} = ${p.error} WHERE ${n.id} = ${p.id}`);
  /** Adds to a notifier's counts; its last error replaced when one is given. */
  const tally = d.prepare<{ notifier: string; sent: number; failed: number; lastError: string | null; lastErrorAt: number | null }>(
    () => sql`INSERT INTO ${s} ${rowValues(s)} ON CONFLICT ${names(s.notifier)} DO UPDATE SET
      ${name(s.sent)} = ${s.sent} + ${excluded(s.sent)}, ${name(s.failed)} = ${s.failed} + ${excluded(s.failed)},
      ${name(s.lastError)} = COALESCE(${excluded(s.lastError)}, ${s.lastError}), ${name(s.lastErrorAt)} = COALESCE(${excluded(s.lastErrorAt)}, ${s.lastErrorAt})`,
  );
  const queued = d.query({ notifier: n.notifier, n: count() }, (list) => sql`SELECT ${list} FROM ${n} WHERE ${n.state} = 'queued' GROUP BY ${n.notifier}`);
  const stats = d.query(columnsOf(s), (list) => sql`SELECT ${list} FROM ${s}`);
  const prune = d.prepare<{ before: number }>((p) => sql`DELETE FROM ${n} WHERE ${n.state} <> 'queued' AND ${n.doneAt} < ${p.before}`);

  return {
    add: (notices, limit) =>
      d.transaction(async () => {
        const dropped: { id: string; notifier: string }[] = [];
        // Locked in one order (by name): two events naming the same notifiers in other orders never wait on each other.
        const ordered = [...notices].sort((a, b) => (a.notifier < b.notifier ? -1 : a.notifier > b.notifier ? 1 : 0));
        for (const { id, notifier, notice, at } of ordered) {
          await d.lock("notices", notifier);
          if (((await queuedOf.get({ notifier }))?.n ?? 0) >= limit) {
            const oldest = await untried.get({ notifier });
            if (oldest && (await remove.run(oldest)) > 0) dropped.push({ id: oldest.id, notifier });
          }
          await insert.run({
            id,
            notifier,
            notice: JSON.stringify(notice),
            state: "queued",
            attempts: 0,
            nextAttemptAt: at,
            lastError: null,
            createdAt: at,
            doneAt: null,
          });
        }
        return dropped;
      }),
    next: async (notifier) => {
      const row = await next.get({ notifier });
      return row && fromRow(row);
    },
    claim: (id, attempts, now, until) => d.write(async () => (await claim.run({ id, attempts, now, until })) > 0),
    sent: (id, attempt, at) =>
      d.transaction(async () => {
        const done = await finish.get({ id, attempt, state: "sent", at });
        if (done) await tally.run({ notifier: done.notifier, sent: 1, failed: 0, lastError: null, lastErrorAt: null });
        return done !== undefined;
      }),
    failed: (id, attempt, error, at, retryAt) =>
      d.transaction(async () => {
        const done = retryAt === null ? await finish.get({ id, attempt, state: "failed", at }) : await retry.get({ id, attempt, error, retryAt });
        if (!done) return false;
        if (retryAt === null) await errorOf.run({ id, error });
        await tally.run({ notifier: done.notifier, sent: 0, failed: retryAt === null ? 1 : 0, lastError: error, lastErrorAt: at });
        return true;
      }),
    lastError: (notifier, error, at) => d.write(async () => void (await tally.run({ notifier, sent: 0, failed: 0, lastError: error, lastErrorAt: at }))),
    counts: async () => {
      const out = new Map<string, NotifierCounts>();
      for (const r of await stats.all({}))
        out.set(r.notifier, { queued: 0, sent: r.sent, failed: r.failed, lastError: r.lastError, lastErrorAt: r.lastErrorAt });
      for (const r of await queued.all({})) {
        const c = out.get(r.notifier);
        if (c) c.queued = r.n;
        else out.set(r.notifier, { queued: r.n, sent: 0, failed: 0, lastError: null, lastErrorAt: null });
      }
      return out;
    },
    prune: (before) => d.write(() => prune.run({ before })),
  };
}

const count = () => sql<number>`count(*)`.mapWith(Number);
