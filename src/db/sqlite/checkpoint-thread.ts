/**
 * The checkpoint thread (a Bun Worker with its own SQLite connection): copies the WAL back into
 * the database file with PASSIVE checkpoints, so that this work, and its fsyncs, never run on the
 * thread that serves HTTP.
 *
 * A PASSIVE checkpoint never blocks the writer or readers. SQLite starts the WAL over at the first
 * write after a checkpoint that copied all of it. Under a steady stream of hooks this thread is
 * always a few commits behind, so that rarely happens by itself: the main connection keeps an
 * automatic checkpoint at a high mark (see checkpoint.ts), which then only has the last few
 * commits left to copy, and the WAL starts over.
 *
 * Messages in: "open" once, "close" (answered by "closed"). Out: "fatal" if it cannot work.
 */
import { Database } from "bun:sqlite";

declare const self: Worker;

export type ToCheckpointer = { type: "open"; path: string; busyMs: number; idleMs: number } | { type: "close" };
export type FromCheckpointer = { type: "fatal"; error: string } | { type: "closed" };

let db: Database | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
const post = (message: FromCheckpointer) => self.postMessage(message);

type Result = { busy: number; log: number; checkpointed: number };

self.onmessage = (event: MessageEvent<ToCheckpointer>) => {
  const m = event.data;
  if (m.type === "close") {
    clearTimeout(timer);
    db?.close(false);
    db = undefined;
    post({ type: "closed" });
    return;
  }
  try {
    db = new Database(m.path, { create: false, strict: true });
    // A new connection's synchronous = FULL: the checkpoint syncs the WAL before copying it and the
    // database file after. A PASSIVE checkpoint never waits on a lock, so it needs no busy timeout.
    db.run("PRAGMA wal_autocheckpoint = 0");
  } catch (error) {
    post({ type: "fatal", error: String(error) });
    return;
  }
  const passive = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
  let last: Result = { busy: 0, log: 0, checkpointed: 0 };
  const tick = () => {
    if (!db) return;
    let moved = false;
    try {
      const r = passive.get() as Result;
      moved = r.log !== last.log || r.checkpointed !== last.checkpointed;
      last = r;
    } catch {
      // A busy checkpoint is tried again on the next tick; nothing is lost by waiting.
    }
    // While hooks keep arriving, checkpoint again soon; when idle, look every idleMs.
    timer = setTimeout(tick, moved ? m.busyMs : m.idleMs);
  };
  tick();
};
