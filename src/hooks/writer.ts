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
   * Stores `hook` with the next batch. `gone` says whether the sender can no longer be answered:
   * asked when the batch is taken (such a hook is left out) and again once the batch is durable
   * (such a hook is taken back with `retract`, when it takes it); either way its promise rejects
   * with SenderGone, so a hook is not kept when its answer could never be sent.
   */
  write(hook: NewHook, gone?: () => boolean): Promise<void>;
  /** Resolves once nothing is queued or waiting to be durable. */
  drain(): Promise<void>;
};

/** Why a hook was left out of its batch, or taken back: its sender's connection closed before it was answered. */
export class SenderGone extends Error {
  constructor() {
    super("the connection closed before the hook was stored");
  }
}

type Entry = { hook: NewHook; resolve: () => void; reject: (e: unknown) => void; gone?: () => boolean };
/** Called with the hooks kept (those not taken back), once, when there is any. */
type AfterCommit = ((kept: readonly NewHook[]) => void) | void;

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
   * Takes back hooks of a durable batch whose senders left meanwhile (a pipelined request arrived
   * while the batch was committed), before anyone is told of them; resolves to the ids it took
   * back (those it keeps are answered as the others). What it throws is logged: they stay stored.
   */
  retract?(hooks: readonly NewHook[]): Promise<readonly string[]>;
  /**
   * Batches committing at once (1 by default). PostgreSQL answers commits over the network and
   * syncs concurrent commits together, so there several transactions in flight keep it busy.
   */
  lanes?: number;
  /**
   * Told once per batch of the hooks it left out or took back because their senders left (when
   * many connections close at once, a batch's worth of them): one summary, not one per hook.
   */
  gone?(hooks: readonly NewHook[]): void;
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
    const lost: Entry[] = [];
    for (const b of batch) (b.gone?.() ? lost : kept).push(b);
    reject(lost);
    return kept;
  }

  /** Rejects the entries whose senders left, then says so once for all of them. */
  function reject(lost: readonly Entry[]): void {
    if (lost.length === 0) return;
    for (const b of lost) b.reject(new SenderGone());
    try {
      opts.gone?.(lost.map((b) => b.hook));
    } catch (error) {
      log.error("an observer of hooks left out failed", { hooks: lost.length, error: String(error) });
    }
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

  /**
   * Once the batch is durable: takes back the hooks whose senders left (retracted), answers the
   * others, then runs the observers with them. Asking `gone` costs no database work; only a batch
   * with a sender gone waits for another transaction.
   */
  function settle(batch: Entry[], then: AfterCommit): Promise<void> | void {
    if (opts.retract && batch.some((b) => b.gone?.())) return retracted(batch, then);
    answer(batch, then);
  }

  /**
   * Takes back the hooks whose senders are gone, then asks again: a sender can leave while the
   * retraction commits. A hook `retract` kept (or could not take back) is not offered again.
   */
  async function retracted(batch: Entry[], then: AfterCommit): Promise<void> {
    let kept = batch;
    const offered = new Set<Entry>();
    const takenBack: Entry[] = [];
    for (;;) {
      const lost = kept.filter((b) => !offered.has(b) && b.gone?.());
      if (lost.length === 0) break;
      for (const b of lost) offered.add(b);
      let back: ReadonlySet<string>;
      try {
        back = new Set(await opts.retract!(lost.map((b) => b.hook)));
      } catch (error) {
        log.error("hooks whose senders left before they were answered could not be taken back (they stay stored)", {
          hooks: lost.length,
          error: String(error),
        });
        continue;
      }
      const next: Entry[] = [];
      for (const b of kept) (back.has(b.hook.id) ? takenBack : next).push(b);
      kept = next;
    }
    reject(takenBack);
    answer(kept, then);
  }

  /** Answers the senders, then runs the observers: a throw there is logged and goes no further. */
  function answer(batch: Entry[], then: AfterCommit): void {
    for (const b of batch) b.resolve();
    if (!then || batch.length === 0) return;
    try {
      then(batch.map((b) => b.hook));
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
          const settling = settle(batch, then);
          if (settling) await settling;
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
