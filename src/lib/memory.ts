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
 * pays nothing; above it, a collection costs its thread 20 to 60 ms.
 */
export const SOFT_MARK_BYTES = 160 * 1024 * 1024;
export const EVERY_MS = 1000;

export type MemoryKeeper = { stop(): void };

export function keepMemoryDown(opts: { softMarkBytes?: number; everyMs?: number; rss?: () => number; collect?: () => void } = {}): MemoryKeeper {
  const mark = opts.softMarkBytes ?? SOFT_MARK_BYTES;
  const rss = opts.rss ?? (() => process.memoryUsage.rss());
  const collect = opts.collect ?? (() => Bun.gc(true));
  const timer = setInterval(() => {
    if (rss() > mark) collect();
  }, opts.everyMs ?? EVERY_MS);
  // Never what keeps the process (or the thread) alive.
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
