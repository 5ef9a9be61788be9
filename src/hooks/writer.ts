import type { NewHook } from "./store";

/**
 * Group commit: hooks caught in the same turn of the event loop share one transaction.
 * The first write of a turn schedules a flush with setImmediate, so a lone request is committed
 * at once and a burst fills a batch (at most `batchMax`) without waiting on a timer. When the
 * commit is asynchronous (the commit thread), one batch is in flight at a time and the next one
 * grows while it commits; it is sent the moment the previous one is acknowledged.
 * Each caller's promise settles only after its batch committed (or failed).
 */
export type BatchWriter = {
  write(hook: NewHook): Promise<void>;
  /** Resolves once nothing is queued or in flight. */
  drain(): Promise<void>;
};

type Entry = { hook: NewHook; resolve: () => void; reject: (e: unknown) => void };

export function createBatchWriter(opts: {
  batchMax: number;
  /** Stores one batch durably in a single transaction; throws (or rejects) to fail the whole batch. */
  commit(batch: NewHook[]): void | Promise<void>;
  /** After a batch committed (outside the transaction): wake the runner. */
  afterCommit?(batch: NewHook[]): void;
}): BatchWriter {
  let queue: Entry[] = [];
  let scheduled = false;
  let inFlight = false;
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

  function settle(batch: Entry[], hooks: NewHook[], error: unknown): void {
    if (error !== undefined) for (const b of batch) b.reject(error);
    else {
      for (const b of batch) b.resolve();
      opts.afterCommit?.(hooks);
    }
  }

  function flush(): void {
    scheduled = false;
    while (queue.length > 0 && !inFlight) {
      const batch = take();
      const hooks = batch.map((b) => b.hook);
      let result: void | Promise<void>;
      try {
        result = opts.commit(hooks);
      } catch (error) {
        settle(batch, hooks, error ?? new Error("commit failed"));
        continue;
      }
      if (result instanceof Promise) {
        inFlight = true;
        result.then(
          () => done(batch, hooks, undefined),
          (error) => done(batch, hooks, error ?? new Error("commit failed")),
        );
        return;
      }
      settle(batch, hooks, undefined);
    }
    if (!inFlight && queue.length === 0) {
      const waiting = idle;
      idle = [];
      for (const w of waiting) w();
    }
  }

  function done(batch: Entry[], hooks: NewHook[], error: unknown): void {
    inFlight = false;
    settle(batch, hooks, error);
    flush();
  }

  return {
    write(hook) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ hook, resolve, reject });
        if (!scheduled && !inFlight) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    drain() {
      if (!scheduled && !inFlight && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}
