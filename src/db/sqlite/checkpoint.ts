import type { Database } from "bun:sqlite";
import type { Log } from "../../lib/log";
import type { FromCheckpointer, ToCheckpointer } from "./checkpoint-thread";

/** SQLite's own default, used again whenever the checkpoint thread is not running. */
const AUTOCHECKPOINT_PAGES = 1000;
/**
 * While the thread runs, the main connection still checkpoints once its WAL reaches this many
 * frames (32 MiB of 4 KiB pages). The thread has copied all but the last few commits by then, so
 * this checkpoint is short, and it lets the next commit start the WAL over.
 */
export const HIGH_MARK_PAGES = 8192;

export type Checkpointer = { close(): Promise<void> };

/**
 * Moves WAL checkpoints off the main thread: starts the checkpoint thread (`threadUrl`, the
 * module db/sqlite/checkpoint-thread.ts) on a connection of its own and raises the main connection's
 * automatic checkpoint to a high mark. If the thread cannot start or fails, the main connection
 * checkpoints by itself again, as SQLite does by default.
 */
export function startCheckpointer(opts: { sql: Database; path: string; threadUrl: string; log: Log }): Checkpointer {
  const { sql, log } = opts;
  let worker: Worker | undefined;
  let closed: (() => void) | undefined;
  const fallBack = (why: string) => {
    log.error("the checkpoint thread stopped; checkpointing on the main thread", { error: why });
    sql.run(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    worker?.terminate();
    worker = undefined;
  };
  try {
    worker = new Worker(opts.threadUrl);
  } catch (error) {
    fallBack(String(error));
    return { close: async () => {} };
  }
  worker.onmessage = (event: MessageEvent<FromCheckpointer>) => {
    if (event.data.type === "fatal") fallBack(event.data.error);
    else closed?.();
  };
  worker.onerror = (event) => fallBack(event.message);
  sql.run(`PRAGMA wal_autocheckpoint = ${HIGH_MARK_PAGES}`);
  const open: ToCheckpointer = { type: "open", path: opts.path, busyMs: 5, idleMs: 200 };
  worker.postMessage(open);

  return {
    close() {
      const w = worker;
      if (!w) return Promise.resolve();
      worker = undefined;
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timeout);
          w.terminate();
          resolve();
        };
        const timeout = setTimeout(done, 2000);
        closed = done;
        w.postMessage({ type: "close" } satisfies ToCheckpointer);
      });
    },
  };
}
