import type { Log } from "../lib/log";
import type { Worker } from "../lib/worker";

/**
 * How often the loop calls a worker at the latest. Other modules may create work without
 * telling the runner (an order placed through HTTP), so a worker that reported a distant or no
 * next-due time is still asked again after this long; its tick does only what is due.
 */
export const WORKER_POLL_MS = 1000;

/** `again`: notify() came while the worker ran; what it was told of may be newer than that run saw. */
type Entry = { worker: Worker; nextCheck: number; running: Promise<void> | null; again?: boolean };

/** The background workers the runner drives beside handler attempts. */
export function createWorkerSet(log: Log, onSettled: () => void, pollMs = WORKER_POLL_MS) {
  const entries: Entry[] = [];

  function run(entry: Entry, now: number): Promise<void> {
    const p = (async () => {
      try {
        const next = await entry.worker.tick(now);
        entry.nextCheck = Math.min(next ?? Infinity, now + pollMs);
      } catch (error) {
        log.error("worker failed", { worker: entry.worker.name, error: String((error as Error)?.stack ?? error) });
        entry.nextCheck = now + pollMs;
      } finally {
        entry.running = null;
        if (entry.again) (entry.again = false), (entry.nextCheck = 0);
        onSettled();
      }
    })();
    entry.running = p;
    return p;
  }

  return {
    add(worker: Worker): void {
      entries.push({ worker, nextCheck: 0, running: null });
    },
    /** Runs every worker once at `now` and waits for them (tick()). */
    async runAll(now: number): Promise<void> {
      await Promise.all(entries.map((e) => e.running ?? run(e, now)));
    },
    /** Starts the workers whose next-due time has come, without waiting (the loop). */
    runDue(now: number): void {
      for (const e of entries) if (!e.running && e.nextCheck <= now) void run(e, now);
    },
    /** The earliest time a worker not running now wants to be called. */
    nextCheck(): number {
      let next = Infinity;
      for (const e of entries) if (!e.running) next = Math.min(next, e.nextCheck);
      return next;
    },
    /** notify(): new work may exist, ask every worker at the next turn. */
    wakeAll(): void {
      for (const e of entries) {
        e.nextCheck = 0;
        if (e.running) e.again = true;
      }
    },
    async settle(): Promise<void> {
      await Promise.all(entries.map((e) => e.running));
    },
  };
}
