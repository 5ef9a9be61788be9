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
 *
 * A collection stops its thread: every request that arrives meanwhile waits for it. While the
 * thread that serves is busy serving (`busy`: at least BUSY_REQUESTS requests since the previous
 * check), it collects only above HARD_MARK_BYTES, and then at most BUSY_SHARE of its time: a flood's
 * garbage waits for the flood's end (the engine's own collections go on meanwhile, as before the
 * keeper). At 5%, one collection of 36 to 60 ms each second under a flood was most of why
 * catching's p99 went from 9-10 ms to 35; at 0.5%, one or two in a 10 s flood still cost the
 * serving thread 2 µs a request (a CPU profile, docs/benchmarks.md). A relay catching up is not
 * served requests (its hooks come over one WebSocket) and keeps the 5%.
 */
export const SOFT_MARK_BYTES = 160 * 1024 * 1024;
/** While the thread is busy serving, collections wait for the flood's end unless the process is above this. */
export const HARD_MARK_BYTES = 2 * SOFT_MARK_BYTES;
export const EVERY_MS = 1000;
/** Requests served since the previous check (EVERY_MS) from which the thread counts as busy: a flood, not a dashboard or a poll. */
export const BUSY_REQUESTS = 100;

export type MemoryKeeper = { stop(): void /** One check, as the timer makes it (tests). */; tick(): void };

/** Collections take at most this share of their thread's time: one that took 90 ms waits 1.8 s before the next. */
const MAX_SHARE = 0.05;
/** While the thread is busy serving: one that took 30 ms waits 6 s. */
const BUSY_SHARE = 0.005;

/** Requests counted for the busy probe: how many, and when the latest came (performance.now()). */
export type Served = { requests: number; lastAt: number };

/** A request this recent (ms) makes the thread busy: a flood that has just begun is not a quiet moment. */
export const QUIET_MS = 20;

/**
 * A `busy` probe for keepMemoryDown over a count of requests served (server.ts counts them): busy
 * when at least BUSY_REQUESTS came since the previous call, or when the latest came less than
 * QUIET_MS ago. The second rule is for the start of a flood: the window before it saw few
 * requests, and a collection then (200 to 280 ms with a large heap, measured) stopped every request
 * of the flood's first moments. Called once per check.
 */
export function busyServing(served: Served, now: () => number = () => performance.now()): () => boolean {
  let seen = served.requests;
  return () => {
    const came = served.requests - seen;
    seen = served.requests;
    return came >= BUSY_REQUESTS || now() - served.lastAt < QUIET_MS;
  };
}

export function keepMemoryDown(
  opts: {
    softMarkBytes?: number;
    /** Above this, a collection runs even while the thread is busy serving (twice the soft mark by default). */
    hardMarkBytes?: number;
    everyMs?: number;
    rss?: () => number;
    collect?: () => void;
    now?: () => number;
    /** Whether the thread is busy serving (called at each check); never, if not given. */
    busy?: () => boolean;
  } = {},
): MemoryKeeper {
  const mark = opts.softMarkBytes ?? SOFT_MARK_BYTES;
  const hardMark = opts.hardMarkBytes ?? 2 * mark;
  const rss = opts.rss ?? (() => process.memoryUsage.rss());
  const collect = opts.collect ?? (() => Bun.gc(true));
  const now = opts.now ?? (() => performance.now());
  const busy = opts.busy ?? (() => false);
  /** When the last collection started and how long it took: the next waits for its share of the time since. */
  let lastAt = Number.NEGATIVE_INFINITY;
  let took = 0;
  const tick = () => {
    // Asked at every check, so that its window is one interval.
    const serving = busy();
    const share = serving ? BUSY_SHARE : MAX_SHARE;
    if (now() < lastAt + took / share) return;
    const size = rss();
    if (size <= (serving ? hardMark : mark)) return;
    lastAt = now();
    collect();
    took = now() - lastAt;
  };
  const timer = setInterval(tick, opts.everyMs ?? EVERY_MS);
  // Never what keeps the process (or the thread) alive.
  timer.unref();
  return { stop: () => clearInterval(timer), tick };
}
