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
 * pays nothing; above it, a collection costs its thread 20 to 60 ms. When what a collection
 * leaves is itself above the mark (that much live data), the next waits until the process has
 * grown by a quarter.
 */
export const SOFT_MARK_BYTES = 160 * 1024 * 1024;
export const EVERY_MS = 1000;

export type MemoryKeeper = { stop(): void /** One check, as the timer makes it (tests). */; tick(): void };

export function keepMemoryDown(opts: { softMarkBytes?: number; everyMs?: number; rss?: () => number; collect?: () => void } = {}): MemoryKeeper {
  const base = opts.softMarkBytes ?? SOFT_MARK_BYTES;
  const rss = opts.rss ?? (() => process.memoryUsage.rss());
  const collect = opts.collect ?? (() => Bun.gc(true));
  /** The mark in force: above the soft mark while what a collection left is itself above it. */
  let mark = base;
  let collected = false;
  const tick = () => {
    const now = rss();
    if (collected) {
      // What the last collection left (read a tick later: freed pages go back to the system after a
      // delay). Live data above the soft mark would make every tick collect, each for longer the
      // more there is (90 ms at 180 MiB, 230 to 290 ms at 400, measured): the next one waits until
      // the process has grown by a quarter.
      collected = false;
      mark = now > base ? now * 1.25 : base;
    } else if (now <= base) mark = base;
    if (now > mark) collect(), (collected = true);
  };
  const timer = setInterval(tick, opts.everyMs ?? EVERY_MS);
  // Never what keeps the process (or the thread) alive.
  timer.unref();
  return { stop: () => clearInterval(timer), tick };
}
