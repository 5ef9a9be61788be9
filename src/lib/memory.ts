/**
 * Keeps a long-running process's resident memory near what it uses.
 *
 * JavaScriptCore collects by its own heuristics, and under a sustained load (a flood caught, a
 * backlog relayed, its hooks indexed) the garbage of old generations and the allocator's freed
 * pages pile up between full collections: 100,000 hooks caught left the process at about 200 MiB,
 * 60 to 90 MiB of which one full collection gave back. While the process's resident set is above
 * SOFT_MARK_BYTES, each thread with a heap of its own (the one that serves, the search index
 * thread) runs a full collection (`Bun.gc(true)`, which also returns mimalloc's free pages) at
 * most once per EVERY_MS. Below the mark nothing runs, so an idle or lightly loaded process
 * pays nothing; above it, a collection costs its thread 20 to 60 ms. Collections take at most
 * 5% of their thread's time: with much live data a collection takes longer (90 ms at 180 MiB,
 * 230 to 290 ms at 400, measured), and the next waits 20 times as long.
 */
export const SOFT_MARK_BYTES = 160 * 1024 * 1024;
export const EVERY_MS = 1000;

export type MemoryKeeper = { stop(): void /** One check, as the timer makes it (tests). */; tick(): void };

/** Collections take at most this share of their thread's time: one that took 90 ms waits 1.8 s before the next. */
const MAX_SHARE = 0.05;

export function keepMemoryDown(
  opts: { softMarkBytes?: number; everyMs?: number; rss?: () => number; collect?: () => void; now?: () => number } = {},
): MemoryKeeper {
  const mark = opts.softMarkBytes ?? SOFT_MARK_BYTES;
  const rss = opts.rss ?? (() => process.memoryUsage.rss());
  const collect = opts.collect ?? (() => Bun.gc(true));
  const now = opts.now ?? (() => performance.now());
  /** No collection before then: a process with much live data (a long collection) collects less often. */
  let nextAt = Number.NEGATIVE_INFINITY;
  const tick = () => {
    if (now() < nextAt || rss() <= mark) return;
    const started = now();
    collect();
    nextAt = started + (now() - started) / MAX_SHARE;
  };
  const timer = setInterval(tick, opts.everyMs ?? EVERY_MS);
  // Never what keeps the process (or the thread) alive.
  timer.unref();
  return { stop: () => clearInterval(timer), tick };
}
