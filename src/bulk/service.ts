import { forwardTargetProblems, outboundProblem } from "../config/forward-target";
import type { HookSearch } from "../hooks/hook-search";
import type { HookService } from "../hooks/service";
import type { HookStatus } from "../hooks/status";
import type { Clock } from "../lib/clock";
import { AppError, invalid, notFound, precondition } from "../lib/errors";
import type { Log } from "../lib/log";
import { rest, restFor } from "../lib/pace";
import type { ReplayOutbound } from "../transfer/replay";
import { type ActionContext, BULK_ACTIONS, type BulkActionName } from "./actions";
import type { BulkCounts, BulkJobRow, BulkJobState, BulkJobStore } from "./store";

/** Hooks acted on per batch (one transaction for retry and discard): catching goes on between batches. */
export const BULK_BATCH = 200;
/**
 * The same on PostgreSQL: a batch waits for the database (a few round trips whatever its size)
 * without holding the thread that catches, so a larger one costs the thread no longer stall.
 */
export const BULK_REMOTE_BATCH = 1000;
/** Ids read per page of the snapshot. */
const PAGE = 1000;
/** Share of the thread a job takes between its batches (lib/pace) while nothing is being caught. */
export const BULK_SHARE = 0.5;
/**
 * Its share while hooks are being caught (one came in the last BULK_BUSY_MS): a fifth, and
 * BULK_BUSY_RATE at most, so that catching keeps most of its rate (docs/benchmarks.md).
 */
export const BULK_BUSY_SHARE = 0.2;
/** How long after a caught hook catching counts as going on (BULK_BUSY_SHARE, BULK_BUSY_RATE). */
export const BULK_BUSY_MS = 250;
/**
 * Hooks a second a job takes at most while hooks are being caught: issue 32's 5,000 with room for
 * the snapshot. Its share of the thread alone let a retry at 1,000,000 hooks go at 9,000 hooks/s on
 * SQLite, and catching kept a median of 59 to 61% of its rate; at 5,500, 74 to 77% (while a
 * batch's CPU time was counted to the end of its wait for the disk, which slowed the job). At 5,250
 * a retry went at 5,134 to 5,228 hooks/s, with catching offered a steady 5,000 hooks/s beside it
 * at its full rate (docs/benchmarks.md, "Bulk retry beside catching at a steady rate").
 */
export const BULK_BUSY_RATE = 5250;
/**
 * What a hook a job acts on costs the thread that catches, against a caught hook: about half (31
 * µs a retried hook against 68 a caught one, measured: docs/benchmarks.md). The background
 * threads' flood watch counts a job's hooks so (BulkDeps.worked).
 */
export const BULK_HOOK_WEIGHT = 0.5;
/** Hooks one job takes at most (its snapshot is held in memory: 26 bytes an id). */
export const BULK_MAX = 1_000_000;

export type BulkDeps = {
  store: BulkJobStore;
  hooks: HookService;
  search: HookSearch;
  clock: Clock;
  log: Pick<Log, "error">;
  nextId: () => string;
  outbound: ReplayOutbound;
  tags: ActionContext["tags"];
  reads: ActionContext["reads"];
  /** Share of the thread a job takes (lib/pace): BULK_SHARE by default. */
  share?: number;
  /** Whether hooks are being caught on this instance now: then a job takes BULK_BUSY_SHARE and BULK_BUSY_RATE at most. */
  busy?: () => boolean;
  /**
   * Told of each batch once it ran, as the caught hooks it weighs (BULK_HOOK_WEIGHT a hook): the
   * work of the thread that serves HTTP besides catching, which the background threads (search
   * index, contract checks) count with caught hooks for their flood watch (lib/serving-busy.ts), so
   * that they stand aside while a job and catching together weigh more than the flood rate.
   */
  worked?: (caughtHooks: number) => void;
  /** Hooks a second a job takes at most while hooks are being caught: BULK_BUSY_RATE by default. */
  busyRate?: number;
  /** Hooks per batch: BULK_BATCH by default (BULK_REMOTE_BATCH on PostgreSQL). */
  batch?: number;
  /**
   * The channels the caller sees that hold hooks in `status` (by their counters), for a snapshot of
   * a status across channels read channel by channel (SQLite's plain list merges one range per
   * channel, each read a page long, for every page: 20 channels read 20 ids for each id kept);
   * absent: read as the plain list reads it.
   */
  channels?: (status: HookStatus) => Promise<string[]>;
  /** Told of each batch's measures and the rest it is given (tests). */
  paced?: (batch: { hooks: number; wallMs: number; cpuMs: number; restMs: number }) => void;
  /** How long a job stays held by its instance without news of it ([storage] attempt_lease): BULK_LEASE_MS by default. */
  leaseMs?: number;
};

/** A job's lease when none is given: an instance silent this long is taken for gone. */
export const BULK_LEASE_MS = 30_000;
/** What an interrupted job says. */
export const INTERRUPTED =
  "interrupted: the instance running it stopped before it ended; the hooks done so far are counted, and running the action again acts on the rest";

const STATUS = new Set(["pending", "handled", "failed", "discarded"]);

/** `channel:NAME` and `status:S` alone (each at most once), as the plain list's filters; undefined for any other query. */
function plainFilter(query: string): { channel?: string; status?: HookStatus } | undefined {
  const out: { channel?: string; status?: HookStatus } = {};
  for (const token of query.trim().split(/\s+/).filter(Boolean)) {
    const m = /^(channel|status):([a-z0-9_-]+)$/.exec(token);
    if (!m || out[m[1] as "channel" | "status"] !== undefined) return undefined;
    if (m[1] === "status" && !STATUS.has(m[2]!)) return undefined;
    out[m[1] as "channel" | "status"] = m[2] as HookStatus;
  }
  return out;
}

/** CPU time of this thread (user and system) in ms; wall time where the runtime cannot tell (then every wait counts). */
const threadCpuMs: () => number =
  typeof process.threadCpuUsage === "function"
    ? () => {
        const c = process.threadCpuUsage();
        return (c.user + c.system) / 1000;
      }
    : () => performance.now();

/**
 * How long (ms) a job rests after a batch of `hooks` that took `wallMs` on the clock and `cpuMs` of
 * the thread's CPU time: long enough that the job takes at most `share` of the thread (by its CPU
 * time: what it waited for, PostgreSQL's answers or a WAL's sync, is not the thread's), restFor's
 * (MAX_REST_MS at most: a batch measured across a stall did not cost the stall). While hooks are being caught
 * (`busy`): at most BULK_BUSY_SHARE of the thread, and at most `busyRate` hooks a second, batch and
 * rest together; `lateMs`, how late the batch started by that rate, is taken off its rest.
 *
 * @example bulkRest({ hooks: 200, wallMs: 12, cpuMs: 10 }, { share: 0.5, busy: false, busyRate: 5500 }) // 10: half the thread
 * @example bulkRest({ hooks: 200, wallMs: 12, cpuMs: 4 }, { share: 0.5, busy: true, busyRate: 5500 }) // 24.4: 200 hooks in 36.4 ms
 */
export function bulkRest(
  batch: { hooks: number; wallMs: number; cpuMs: number; lateMs?: number },
  pace: { share: number; busy: boolean; busyRate: number },
): number {
  const share = pace.busy ? Math.min(pace.share, BULK_BUSY_SHARE) : pace.share;
  const took = Math.min(batch.wallMs, batch.cpuMs);
  const byShare = restFor(took, share);
  const byRate = pace.busy ? (batch.hooks * 1000) / pace.busyRate - batch.wallMs - (batch.lateMs ?? 0) : 0;
  return Math.max(0, byShare, byRate);
}

/** A key just above `id` in sort order (hook ids have 26 characters), so that paging after it starts with `id`. */
const nextAbove = (id: string) => `${id}0`;

/**
 * Bulk actions by query. A job starts with a snapshot: the newest hook id now (`until`), then the
 * ids of every hook up to it that the query matches in a status the action applies to. Only those
 * are acted on, in batches: a hook caught meanwhile is never in the job, a hook of the snapshot is
 * acted on once (or skipped when it is gone or moved to a status the action does not apply to).
 * The job's row carries its progress, written with each batch (retry and discard: in the batch's
 * own transaction; the other actions after it); a cancel (any instance) is seen
 * by the next write, and the batch in flight ends first. The row also carries the job's lease,
 * renewed with each batch and every third of it: a job whose instance stopped is found by its lease
 * (at start, and whenever jobs are read) and marked interrupted, never left running.
 */
export function createBulk(deps: BulkDeps) {
  const { store, hooks, search, clock } = deps;
  const leaseMs = deps.leaseMs ?? BULK_LEASE_MS;
  const running = new Set<Promise<void>>();

  /** The snapshot of a query for an action; throws invalid_argument for a query that does not parse. */
  async function snapshot(query: string, action: BulkActionName, reader?: string): Promise<{ ids: string[]; until: string | null }> {
    // `is:unread` is the caller's (a dashboard user's e-mail, `api:<label>`), as in a list.
    const searched = search.read(query, reader);
    // A query of a channel and a status only is the plain list's filter: read by its index, not the search's.
    const plain = plainFilter(query);
    const find: (page: Parameters<typeof searched>[0]) => Promise<string[]> = plain
      ? (page) => hooks.listIds({ ...page, ...plain, channel: page.channel ?? plain.channel, status: page.status ?? plain.status })
      : searched;
    const until = (await hooks.listIds({ limit: 1 }))[0];
    if (!until) return { ids: [], until: null };
    const from: readonly (string | undefined)[] = (BULK_ACTIONS[action] as { from?: readonly string[] }).from ?? [undefined];
    const seen = new Set<string>();
    for (const status of from) {
      // A plain query of another status than this one (status:failed, and discard's pending) matches nothing of it.
      if (plain?.status && status && plain.status !== status) continue;
      // A status of every channel, with deps.channels: each channel's range read on its own (the ids are sorted at the end).
      const wanted = (status ?? plain?.status) as HookStatus | undefined;
      const acrossChannels = plain && plain.channel === undefined && wanted !== undefined && deps.channels;
      const byChannel: (string | undefined)[] = acrossChannels ? await acrossChannels(wanted) : [undefined];
      for (const channel of byChannel) {
        let after = nextAbove(until);
        for (;;) {
          const page = await find({ channel, status: status as never, after, limit: PAGE });
          for (const id of page) seen.add(id);
          if (seen.size > BULK_MAX) throw invalid(`query: matches more than ${BULK_MAX} hooks; narrow it (after:, channel:) and run it in parts`);
          if (page.length < PAGE) break;
          after = page[page.length - 1]!;
        }
      }
    }
    return { ids: [...seen].sort().reverse(), until };
  }

  /** Throws invalid_argument or permission_denied unless `url` may be sent to (as a replay's). */
  async function checkUrl(url: unknown): Promise<void> {
    if (typeof url !== "string" || url === "") throw invalid("url: send needs the URL to send each hook to");
    const problems = forwardTargetProblems(url, {});
    if (problems.length > 0) throw invalid(problems.map((p) => [p.path, p.message].filter(Boolean).join(": ")).join("; "));
    const forbidden = await outboundProblem(url, deps.outbound);
    if (forbidden) throw new AppError("permission_denied", `url: ${forbidden}`);
  }

  async function run(job: BulkJobRow, ids: string[]): Promise<void> {
    const spec = BULK_ACTIONS[job.action as BulkActionName];
    const c = { done: 0, skipped: 0, failed: 0 };
    // The lease is renewed by each batch's progress and, for a batch that takes long (send), by a heartbeat.
    const beat = setInterval(() => void store.renew(job.id, clock.now() + leaseMs).catch(() => {}), leaseMs / 3);
    beat.unref?.();
    try {
      const busyRate = deps.busyRate ?? BULK_BUSY_RATE;
      // When the next batch is due by the ceiling: one that starts late (a timer fires late on a busy
      // thread) is owed the lateness, up to a batch's time, so that the job keeps to the ceiling's rate.
      let due = performance.now();
      const size = deps.batch ?? BULK_BATCH;
      for (let i = 0; i < ids.length; i += size) {
        const started = performance.now();
        const cpu = threadCpuMs();
        const batch = ids.slice(i, i + size);
        const counted = (got: BulkCounts) => ({ done: c.done + got.done, skipped: c.skipped + got.skipped, failed: c.failed + got.failed });
        // Retry and discard write the progress in the batch's own transaction (one commit, and the
        // counts never apart from the hooks they count); the other actions after the batch.
        let state: BulkJobState | undefined | null = null;
        // The batch's own CPU time: up to its commit when it is one transaction (retry, discard).
        // While it waits for the disk the thread catches; that is not the job's.
        let cpuAtCommit: number | undefined;
        const got = await spec.run(batch, {
          hooks,
          actor: job.actor,
          params: job.params,
          outbound: deps.outbound,
          tags: deps.tags,
          reads: deps.reads,
          now: clock.now(),
          within: async (part) => void (state = await store.progress(job.id, counted(part), clock.now() + leaseMs)),
          committed: () => void (cpuAtCommit = threadCpuMs()),
        });
        Object.assign(c, counted(got));
        deps.worked?.(Math.ceil(batch.length * BULK_HOOK_WEIGHT));
        if (state === null) state = await store.progress(job.id, c, clock.now() + leaseMs);
        if (state !== "running") return;
        const wallMs = performance.now() - started;
        const lateMs = Math.min(Math.max(0, started - due), (batch.length * 1000) / busyRate);
        const share = deps.share ?? BULK_SHARE;
        const cpuMs = (cpuAtCommit ?? threadCpuMs()) - cpu;
        const ms = bulkRest({ hooks: batch.length, wallMs, cpuMs, lateMs }, { share, busy: deps.busy?.() ?? false, busyRate });
        deps.paced?.({ hooks: batch.length, wallMs, cpuMs, restMs: ms });
        due = performance.now() + ms;
        await rest(ms);
      }
      await store.finish(job.id, "done", clock.now(), "");
    } catch (error) {
      deps.log.error("a bulk job failed", { job: job.id, error: String(error) });
      await store.finish(job.id, "failed", clock.now(), "the job stopped on an error; the hooks done so far are counted").catch(() => {});
    } finally {
      clearInterval(beat);
    }
  }

  /** The jobs as they are, a running one whose instance is gone (its lease ran out) interrupted first. */
  async function current<T extends BulkJobRow | undefined>(jobs: T[], again: () => Promise<T[]>): Promise<T[]> {
    const now = clock.now();
    if (!jobs.some((j) => j?.state === "running" && (j.leaseUntil === null || j.leaseUntil < now))) return jobs;
    return (await store.interruptAbandoned(now, INTERRUPTED)) > 0 ? again() : jobs;
  }

  return {
    snapshot,
    checkUrl,
    /** Starts a job (its snapshot taken first) and answers it; it runs on in the background. */
    async start(action: BulkActionName, query: string, params: Record<string, unknown>, actor: string): Promise<BulkJobRow> {
      if (action === "send") await checkUrl(params.url);
      const { ids, until } = await snapshot(query, action, actor);
      const job: BulkJobRow = {
        id: deps.nextId(),
        action,
        query,
        params,
        actor,
        state: "running",
        total: ids.length,
        done: 0,
        skipped: 0,
        failed: 0,
        until,
        createdAt: clock.now(),
        finishedAt: null,
        message: "",
        leaseUntil: clock.now() + leaseMs,
      };
      await store.create(job);
      const p = run(job, ids).finally(() => running.delete(p));
      running.add(p);
      return job;
    },
    /** A job; one whose instance is gone is interrupted first (throws not_found). */
    async get(id: string): Promise<BulkJobRow> {
      const [job] = await current([await store.get(id)], async () => [await store.get(id)]);
      if (!job) throw notFound(`bulk job "${id}" not found`);
      return job;
    },
    /** Jobs newest first; those whose instance is gone are interrupted first. */
    list: async (before: string | undefined, limit: number) => {
      const read = () => store.list({ before, limit });
      return current(await read(), read);
    },
    /**
     * At start: jobs left running by an instance that stopped are interrupted; with `all` (SQLite,
     * where one process owns the database) every running job, at once; else those whose lease ran out.
     */
    recover: (all: boolean) => store.interruptAbandoned(clock.now(), INTERRUPTED, all),
    /** Cancels a running job; throws not_found, or failed_precondition when it has ended. */
    async cancel(id: string, actor: string): Promise<BulkJobRow> {
      // Read first, through the store as the caller sees it: a caller limited to channels cancels only its own jobs.
      if ((await store.get(id)) === undefined) throw notFound(`bulk job "${id}" not found`);
      const moved = await store.finish(id, "cancelled", clock.now(), `cancelled by ${actor}`);
      if (moved === undefined) throw notFound(`bulk job "${id}" not found`);
      if (moved === "conflict") throw precondition(`bulk job "${id}" has ended already`);
      return moved;
    },
    /** Resolves once the jobs this instance runs have stopped (tests, shutdown). */
    idle: () => Promise.all([...running]).then(() => {}),
  };
}

export type Bulk = ReturnType<typeof createBulk>;
