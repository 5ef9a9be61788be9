/**
 * What the notifiers' outbox (issue 33) costs, at the store, on SQLite (a data file, durability
 * "full") and PostgreSQL (a fresh database on the test cluster: MAILROOM_TEST_PG_URL, or one
 * started for the run):
 *
 * - an issue event: the issue written alone, against the issue and its notices for two notifiers
 *   in one transaction (as the rules' engine writes them), in alternating rounds; nothing is sent
 *   meanwhile, so the queues are full (QUEUE_LIMIT) after the first 100 events and each notice
 *   drops the oldest: the dearest case (a receiver down), an empty queue's count is cheaper;
 * - the lease holder's idle look at the outbox: `next()` for each of 5 notifiers, nothing queued
 *   (what it does every second when there is nothing to send);
 * - one notice's way out without the network: next, claim, sent.
 *
 * Prints this process's CPU time per operation (getrusage through process.cpuUsage; on PostgreSQL
 * the server's own CPU is not in it) and the wall time, with the load average: CPU time is the
 * figure that holds on a shared machine.
 *
 *   bun run bench/notices.ts [--events 2000] [--rounds 4] [--backend sqlite|postgres|both]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { IssueRow, IssueStore } from "../src/alerts/store";
import { migratePostgres } from "../src/db/pg/migrate";
import { openPostgres } from "../src/db/pg/open";
import { pgTransactor } from "../src/db/pg/transactor";
import { openDatabase } from "../src/db/sqlite/open";
import { type Dialect, pgDialect, sqliteDialect } from "../src/db/stores/dialect";
import { createIssueStore } from "../src/db/stores/issues";
import { createNoticeStore } from "../src/db/stores/notices";
import { createIdFactory } from "../src/lib/ids";
import type { IssueNotice } from "../src/notify/notice";
import { QUEUE_LIMIT } from "../src/notify/notifiers";
import type { NoticeStore } from "../src/notify/store";
import { freshDatabase, postgresCluster } from "../test/helpers/postgres";

const { values: args } = parseArgs({
  options: {
    events: { type: "string", default: "2000" },
    rounds: { type: "string", default: "4" },
    backend: { type: "string", default: "both" },
  },
});
const EVENTS = Number(args.events);
const ROUNDS = Number(args.rounds);
const newId = createIdFactory({ now: () => Date.now() });

const issue = (): IssueRow => ({
  id: newId(),
  rule: "quiet",
  kind: "silence",
  scope: "stripe",
  summary: "no hook on stripe for 30 min",
  state: "open",
  openedAt: Date.now(),
  lastSeenAt: Date.now(),
  resolvedAt: null,
  count: 1,
  hooksQuery: "channel=stripe",
  notifiedAt: Date.now(),
  history: [{ at: Date.now(), action: "opened", by: "mailroom" }],
});
const notice = (row: IssueRow): IssueNotice => ({
  event: "opened",
  issue: {
    id: row.id,
    rule: row.rule,
    kind: row.kind,
    scope: row.scope,
    summary: row.summary,
    state: row.state,
    opened_at: new Date(row.openedAt).toISOString(),
    last_seen_at: new Date(row.lastSeenAt).toISOString(),
    resolved_at: null,
    count: 1,
    hooks_query: row.hooksQuery,
  },
  url: null,
});

/** CPU µs and wall ms per operation of `n` runs of `op`. */
async function measure(n: number, op: (i: number) => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await op(i);
  const cpu = process.cpuUsage(cpu0);
  return { cpu: (cpu.user + cpu.system) / n, wall: (performance.now() - t0) / n };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function run(name: string, d: Dialect) {
  const issues: IssueStore = createIssueStore(d);
  const notices: NoticeStore = createNoticeStore(d);
  const alone: { cpu: number; wall: number }[] = [];
  const withNotices: { cpu: number; wall: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    alone.push(await measure(EVENTS, () => issues.transaction(() => issues.open(issue()))));
    withNotices.push(
      await measure(EVENTS, () =>
        issues.transaction(async () => {
          const row = issue();
          await issues.open(row);
          const n = notice(row);
          await notices.add(
            ["ops", "mail"].map((notifier) => ({ id: newId(), notifier, notice: n, at: Date.now() })),
            QUEUE_LIMIT,
          );
        }),
      ),
    );
  }
  // The sends' way out, without the network, draining what the rounds left queued for one notifier.
  const drained = await measure(QUEUE_LIMIT, async () => {
    const head = await notices.next("ops");
    if (!head) return;
    const now = Date.now();
    if (await notices.claim(head.id, head.attempts, now + 1, now + 40_000)) await notices.sent(head.id, head.attempts + 1, now);
  });
  const names = ["ops", "mail", "pager", "teams", "discord"].map((n) => `${n}-idle`);
  const idle = await measure(EVENTS, () => Promise.all(names.map((n) => notices.next(n))));
  const cpu = (xs: { cpu: number }[]) => median(xs.map((x) => x.cpu)).toFixed(1);
  const wall = (xs: { wall: number }[]) => median(xs.map((x) => x.wall)).toFixed(3);
  console.log(
    `${name}: load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(`  issue event alone            cpu ${cpu(alone)} µs  wall ${wall(alone)} ms  (median of ${ROUNDS} rounds of ${EVENTS})`);
  console.log(`  issue event + 2 notices      cpu ${cpu(withNotices)} µs  wall ${wall(withNotices)} ms`);
  console.log(`  rounds (alone / with), cpu µs: ${alone.map((a, i) => `${a.cpu.toFixed(0)}/${withNotices[i]!.cpu.toFixed(0)}`).join(", ")}`);
  console.log(`  a notice sent (next, claim, sent)  cpu ${drained.cpu.toFixed(1)} µs  wall ${drained.wall.toFixed(3)} ms`);
  console.log(`  idle look, 5 notifiers       cpu ${idle.cpu.toFixed(1)} µs  wall ${idle.wall.toFixed(3)} ms (once a second on the lease holder)`);
}

if (args.backend !== "postgres") {
  const dir = mkdtempSync(join(tmpdir(), "outbox-bench-"));
  try {
    const db = openDatabase({ path: join(dir, "mailroom.db"), durability: "full" });
    await run('SQLite (durability "full")', sqliteDialect(db.$client));
    db.$client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
if (args.backend !== "sqlite") {
  const sql = await openPostgres(await freshDatabase(), { max: 4 });
  await migratePostgres(sql);
  await run("PostgreSQL", pgDialect(pgTransactor(sql)));
  await sql.close();
  if (!process.env.MAILROOM_TEST_PG_URL) await (await postgresCluster()).stop();
}
