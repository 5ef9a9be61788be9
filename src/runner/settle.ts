import type { RawHook } from "../hooks/store";
import type { Clock } from "../lib/clock";
import type { Activity } from "../lib/terminal";
import { nextDelay } from "../lib/backoff";
import type { AttemptResult, HandlerPolicy } from "./handlers";
import { type AttemptQueue, type AttemptRow, holdsHook, type Outcome } from "./queue";
import type { HookOutcomes, HookReader } from "../hooks/runner";

/** The `handled` event's message of a hook whose every handler's `when` passed it over. */
export const NO_HANDLER_WANTS = "no handler wants this hook (their when does not match it)";

/** Most results settled in one transaction (a relay acknowledgement carries up to 256). */
export const SETTLE_BATCH = 64;

export type SettlerDeps = {
  queue: AttemptQueue;
  clock: Clock;
  random: () => number;
  activity?: Activity;
  /** An attempt's outcome was recorded (succeeded, failed or gave_up), told once committed. */
  onFinished?: (handler: string, outcome: Outcome) => void;
  outcomes: () => HookOutcomes;
  reader: () => HookReader;
};

/**
 * Records what attempts did: the attempt's outcome, the attempt queued after a failure, or the
 * hook's new status (failed when a handler gave up, handled when every handler succeeded), all in
 * one transaction. Results arriving in the same turn of the event loop (one relay
 * acknowledgement carries many hooks) settle together, SETTLE_BATCH per transaction.
 */
export function createSettler(deps: SettlerDeps) {
  /** A result waiting for the next batch of settlements. */
  type Settling = {
    row: AttemptRow;
    policy: HandlerPolicy | undefined;
    result: AttemptResult;
    startedAt: number;
    /** The hook as the attempt read it (its channel); a failed attempt reads it again (discarded meanwhile?). */
    hook?: RawHook;
    done: (error?: unknown) => void;
  };
  const waiting: Settling[] = [];
  let scheduled = false;

  /**
   * Records one result inside the caller's transaction; resolves to its outcome, undefined when
   * nothing was recorded. A success is only noted in `succeeded`: whether its hook is handled is
   * decided for the whole batch at once (recordBatch).
   */
  async function record(s: Settling, succeeded: Map<string, RawHook | undefined>): Promise<Outcome | undefined> {
    const { row, policy, result } = s;
    const now = deps.clock.now();
    const hook = result.ok && s.hook ? s.hook : await deps.reader().raw(row.hookId);
    if (!hook) return undefined; // deleted meanwhile, its attempts with it
    const tries = row.attempt - row.roundStart + 1;
    const outcome: Outcome = result.skipped ? "skipped" : result.ok ? "succeeded" : !policy || tries >= policy.maxAttempts ? "gave_up" : "failed";
    // The row is gone (the hook was deleted) or no longer this process's.
    if (!(await deps.queue.finish(row.id, outcome, result, now))) return undefined;
    const next = outcome === "failed" && hook.status !== "discarded" ? nextDelay(tries, policy!.backoff, result.retryAfter, deps.random) : undefined;
    // A handler that did not want the hook has nothing to show on the terminal.
    if (outcome !== "skipped")
      deps.activity?.attempt({
        hookId: row.hookId,
        channel: hook.channel,
        handler: row.handler,
        attempt: row.attempt,
        outcome,
        httpStatus: result.httpStatus,
        exitCode: result.exitCode,
        ms: Math.max(0, now - s.startedAt),
        error: result.error,
        ...(next === undefined ? {} : { nextInMs: next }),
      });
    if (next !== undefined) {
      await deps.queue.queueNext(row, now + next);
    } else if (outcome === "gave_up") {
      const after = tries === 1 ? "after 1 attempt" : `after ${tries} attempts`;
      await deps.outcomes().failed(row.hookId, row.handler, `gave up ${after}: ${result.error}`);
    } else if (outcome === "succeeded" || outcome === "skipped") {
      succeeded.set(row.hookId, hook);
    }
    return outcome;
  }

  /**
   * Records a batch inside the caller's transaction; then the hooks whose attempts succeeded are
   * handled when the latest attempt of every handler succeeded, read for the whole batch in one
   * statement (two handlers of one hook settling together are both seen).
   */
  async function recordBatch(batch: readonly Settling[], finished: [string, Outcome][]): Promise<void> {
    const succeeded = new Map<string, RawHook | undefined>();
    for (const s of batch) {
      const outcome = await record(s, succeeded);
      if (outcome) finished.push([s.row.handler, outcome]);
    }
    if (succeeded.size === 0) return;
    const unfinished = new Set<string>();
    /** Hooks one handler at least succeeded on (the others did not want them). */
    const sent = new Set<string>();
    for (const a of await deps.queue.latestOf([...succeeded.keys()])) {
      if (holdsHook(a)) unfinished.add(a.hookId);
      if (a.outcome === "succeeded") sent.add(a.hookId);
    }
    for (const [id, hook] of succeeded) if (!unfinished.has(id)) await deps.outcomes().handled(id, hook, sent.has(id) ? "" : NO_HANDLER_WANTS);
  }

  /** Settles a batch in one transaction; once committed, tells the metrics and the waiting attempts. */
  async function commit(batch: Settling[]): Promise<void> {
    const finished: [string, Outcome][] = [];
    await deps.queue.transaction(async () => {
      finished.length = 0;
      await recordBatch(batch, finished);
    });
    // Once committed: a transaction that failed recorded nothing.
    for (const [handler, outcome] of finished) deps.onFinished?.(handler, outcome);
  }

  /**
   * Settles what waits, SETTLE_BATCH results per transaction. Each batch takes its own turn of the
   * database, so a caught batch that asked for a turn meanwhile commits between two of them (catching
   * never waits for more than one batch of bookkeeping). A batch that fails is settled again one
   * result per transaction, so one bad result does not fail the others.
   */
  async function flush(): Promise<void> {
    try {
      await drain();
    } finally {
      scheduled = false;
    }
  }

  async function drain(): Promise<void> {
    while (waiting.length > 0) {
      const batch = waiting.splice(0, SETTLE_BATCH);
      try {
        await commit(batch);
        for (const s of batch) s.done();
      } catch (error) {
        if (batch.length === 1) batch[0]!.done(error);
        else for (const s of batch) await commit([s]).then(() => s.done(), s.done);
      }
      // Let what resolved meanwhile (acknowledgements, caught hooks) join or go first.
      await new Promise<void>((r) => setImmediate(r));
    }
  }

  /**
   * Records the result; queues the next attempt, or gives up, or marks the hook handled. Results
   * arriving together (one relay acknowledgement carries many) settle in one transaction: the
   * attempt's result, the attempt queued after it and the hook's new status always commit together.
   */
  function settle(row: AttemptRow, policy: HandlerPolicy | undefined, result: AttemptResult, startedAt = deps.clock.now(), hook?: RawHook): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      waiting.push({ row, policy, result, startedAt, hook, done: (error) => (error === undefined ? resolve() : reject(error)) });
      // Started after the current turn: everything resolved in it (a whole acknowledgement) joins the batch.
      if (!scheduled) (scheduled = true), setImmediate(() => void flush());
    });
  }

  return settle;
}
