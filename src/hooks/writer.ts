import type { NewHook } from "./store";

/**
 * Group commit: hooks caught in the same turn of the event loop share one transaction.
 * The first write of a turn schedules a flush with setImmediate, so a lone request is
 * committed at once and a burst fills a batch (at most `batchMax`) without waiting on a timer.
 * Each caller's promise settles only after its batch committed (or failed).
 */
export type BatchWriter = {
  write(hook: NewHook): Promise<void>;
  /** Commits whatever is queued now; resolves when the queue is empty. */
  drain(): Promise<void>;
};

export function createBatchWriter(opts: {
  batchMax: number;
  /** Stores one batch durably in a single transaction; throws to reject the whole batch. */
  commit(batch: NewHook[]): void;
  /** After a batch committed (outside the transaction): wake the runner. */
  afterCommit?(batch: NewHook[]): void;
}): BatchWriter {
  let queue: { hook: NewHook; resolve: () => void; reject: (e: unknown) => void }[] = [];
  let scheduled = false;
  let idle: (() => void)[] = [];

  function flush(): void {
    scheduled = false;
    while (queue.length > 0) {
      let batch = queue;
      if (queue.length > opts.batchMax) (batch = queue.slice(0, opts.batchMax)), (queue = queue.slice(opts.batchMax));
      else queue = [];
      const hooks = batch.map((b) => b.hook);
      try {
        opts.commit(hooks);
      } catch (error) {
        for (const b of batch) b.reject(error);
        continue;
      }
      for (const b of batch) b.resolve();
      opts.afterCommit?.(hooks);
    }
    const waiting = idle;
    idle = [];
    for (const w of waiting) w();
  }

  return {
    write(hook) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ hook, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    drain() {
      if (!scheduled && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}
