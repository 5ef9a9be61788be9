import type { Log } from "../lib/log";
import type { NewHook } from "./store";

/**
 * Group commit: hooks caught in the same turn of the event loop share one transaction.
 * The first write of a turn schedules a flush with setImmediate, so a lone request is committed
 * at once and a burst fills a batch (at most `batchMax`) without waiting on a timer. Hooks that
 * arrive while a batch is committing (PostgreSQL answers over the network) form the next batch.
 * Each caller's promise settles only after its batch committed and, when `durable` is given,
 * after that resolved too (the WAL is synced off the event loop meanwhile, while the next batch
 * is already being committed).
 *
 * Nothing a batch does can stall the writer: a commit or a sync that fails rejects that batch's
 * senders only, an observer that throws is logged (its senders are already answered), and the
 * counters that drain() waits on are kept in `finally` blocks.
 */
export type BatchWriter = {
  /**
   * Stores `hook` with the next batch. `gone`, asked when the batch is taken, says whether the
   * sender can no longer be answered: such a hook is left out and its promise rejects with
   * SenderGone, so a hook is not stored when its answer could never be sent.
   */
  write(hook: NewHook, gone?: () => boolean): Promise<void>;
  /** Resolves once nothing is queued or waiting to be durable. */
  drain(): Promise<void>;
};

/** Why a hook was left out of its batch: its sender's connection closed before the batch was taken. */
export class SenderGone extends Error {
  constructor() {
    super("the connection closed before the hook was stored");
  }
}

type Entry = { hook: NewHook; resolve: () => void; reject: (e: unknown) => void; gone?: () => boolean };
type AfterCommit = (() => void) | void;

export function createBatchWriter(opts: {
  batchMax: number;
  /**
   * Stores one batch in a single transaction; throws to fail the whole batch. What it returns is
   * called once the batch is durable, right after its senders are answered (before any of them
   * reads its answer); what it throws is logged, never passed on.
   */
  commit(batch: NewHook[]): Promise<AfterCommit> | AfterCommit;
  /** Resolves once what commit() wrote is on disk; rejects (or throws) to fail the batch. */
  durable?(): Promise<void>;
  /**
   * Batches committing at once (1 by default). PostgreSQL answers commits over the network and
   * syncs concurrent commits together, so there several transactions in flight keep it busy.
   */
  lanes?: number;
  /** Where an after-commit observer's error goes (the writer itself goes on). */
  log: Pick<Log, "error">;
}): BatchWriter {
  const lanes = Math.max(1, opts.lanes ?? 1);
  const log = opts.log;
  let queue: Entry[] = [];
  /** Lanes started (scheduled or committing), and whether one is scheduled but not started yet. */
  let running = 0;
  let starting = false;
  let syncing = 0;
  let idle: (() => void)[] = [];

  function take(): Entry[] {
    let batch: Entry[];
    if (queue.length <= opts.batchMax) {
      batch = queue;
      queue = [];
    } else {
      batch = queue.slice(0, opts.batchMax);
      queue = queue.slice(opts.batchMax);
    }
    if (!batch.some((b) => b.gone?.())) return batch;
    const kept: Entry[] = [];
    for (const b of batch) {
      if (b.gone?.()) b.reject(new SenderGone());
      else kept.push(b);
    }
    return kept;
  }

  function wakeIdle(): void {
    if (running > 0 || syncing > 0 || queue.length > 0) return;
    const waiting = idle;
    idle = [];
    for (const w of waiting) w();
  }

  function fail(batch: Entry[], error: unknown): void {
    for (const b of batch) b.reject(error);
  }

  /** Answers the senders, then runs the observers: a throw there is logged and goes no further. */
  function settle(batch: Entry[], then: AfterCommit): void {
    for (const b of batch) b.resolve();
    if (!then) return;
    try {
      then();
    } catch (error) {
      log.error("an observer of committed hooks failed (the hooks are stored)", { hooks: batch.length, error: String(error) });
    }
  }

  /** One lane: commits batches one after another (each awaits its transaction) until the queue is empty. */
  async function flush(): Promise<void> {
    try {
      while (queue.length > 0) {
        const batch = take();
        if (batch.length === 0) continue;
        let then: AfterCommit;
        let ready: Promise<void> | undefined;
        try {
          then = await opts.commit(batch.map((b) => b.hook));
          ready = opts.durable?.();
        } catch (error) {
          fail(batch, error);
          continue;
        }
        if (!ready) {
          settle(batch, then);
          continue;
        }
        syncing++;
        ready
          .then(
            () => settle(batch, then),
            (error) => fail(batch, error),
          )
          .finally(() => {
            syncing--;
            wakeIdle();
          });
      }
    } finally {
      running--;
      wakeIdle();
    }
  }

  return {
    write(hook, gone) {
      return new Promise<void>((resolve, reject) => {
        queue.push(gone ? { hook, resolve, reject, gone } : { hook, resolve, reject });
        // A lane starts on the next turn, so that a burst of this turn fills its batch; another
        // starts while the running ones commit, up to `lanes`.
        if (running < lanes && (running === 0 || !starting)) {
          running++;
          starting = true;
          setImmediate(() => {
            starting = false;
            void flush();
          });
        }
      });
    },
    drain() {
      if (running === 0 && syncing === 0 && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}
