import type { NewHook } from "./store";

/**
 * Group commit: hooks caught in the same turn of the event loop share one transaction.
 * The first write of a turn schedules a flush with setImmediate, so a lone request is committed
 * at once and a burst fills a batch (at most `batchMax`) without waiting on a timer. Hooks that
 * arrive while a batch is committing (PostgreSQL answers over the network) form the next batch.
 * Each caller's promise settles only after its batch committed and, when `durable` is given,
 * after that resolved too (the WAL is synced off the event loop meanwhile, while the next batch
 * is already being committed).
 */
export type BatchWriter = {
  write(hook: NewHook): Promise<void>;
  /** Resolves once nothing is queued or waiting to be durable. */
  drain(): Promise<void>;
};

type Entry = { hook: NewHook; resolve: () => void; reject: (e: unknown) => void };

export function createBatchWriter(opts: {
  batchMax: number;
  /**
   * Stores one batch in a single transaction; throws to fail the whole batch. What it returns is
   * called once the batch is durable, just before its senders are answered.
   */
  commit(batch: NewHook[]): Promise<(() => void) | void> | (() => void) | void;
  /** Resolves once what commit() wrote is on disk; rejects to fail the batch. */
  durable?(): Promise<void>;
  /**
   * Batches committing at once (1 by default). PostgreSQL answers commits over the network and
   * syncs concurrent commits together, so there several transactions in flight keep it busy.
   */
  lanes?: number;
}): BatchWriter {
  const lanes = Math.max(1, opts.lanes ?? 1);
  let queue: Entry[] = [];
  /** Lanes started (scheduled or committing), and whether one is scheduled but not started yet. */
  let running = 0;
  let starting = false;
  let syncing = 0;
  let idle: (() => void)[] = [];

  function take(): Entry[] {
    if (queue.length <= opts.batchMax) {
      const all = queue;
      queue = [];
      return all;
    }
    const batch = queue.slice(0, opts.batchMax);
    queue = queue.slice(opts.batchMax);
    return batch;
  }

  function wakeIdle(): void {
    if (running > 0 || syncing > 0 || queue.length > 0) return;
    const waiting = idle;
    idle = [];
    for (const w of waiting) w();
  }

  /** One lane: commits batches one after another (each awaits its transaction) until the queue is empty. */
  async function flush(): Promise<void> {
    while (queue.length > 0) {
      const batch = take();
      const hooks = batch.map((b) => b.hook);
      let then: (() => void) | void;
      try {
        then = await opts.commit(hooks);
      } catch (error) {
        for (const b of batch) b.reject(error);
        continue;
      }
      const settle = () => {
        then?.();
        for (const b of batch) b.resolve();
      };
      const ready = opts.durable?.();
      if (!ready) {
        settle();
        continue;
      }
      syncing++;
      ready.then(settle, (error) => batch.forEach((b) => b.reject(error))).finally(() => {
        syncing--;
        wakeIdle();
      });
    }
    running--;
    wakeIdle();
  }

  return {
    write(hook) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ hook, resolve, reject });
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
