/** Hooks a second above which catching counts as a flood the background stands aside for. */
export const FLOOD_RATE = 8000;
/** The shortest window a rate is measured over, and how long a wait sleeps before looking again. */
const WINDOW_MS = 50;
/** A wait ends after this long even if the flood goes on: background work slows, it never stops. */
export const MAX_WAIT_MS = 5000;

/** Where the counters live in the shared array. */
const CAUGHT = 0;
const SEARCHING = 1;

/**
 * The serving side of a flood watch: the memory it shares with the background thread, the hooks
 * it catches (`caught`, one Atomics.add per caught batch; a bulk job's batches are added too, at
 * their weight in caught hooks: bulk/service.ts BULK_HOOK_WEIGHT), and the searches waiting for the
 * background's work (`searching(+1)` wakes a waiting thread at once, `searching(-1)` when answered).
 */
export function createFloodCounters() {
  const shared = new Int32Array(new SharedArrayBuffer(8));
  return {
    shared,
    caught: (n: number) => void Atomics.add(shared, CAUGHT, n),
    searching(delta: 1 | -1): void {
      Atomics.add(shared, SEARCHING, delta);
      if (delta > 0) Atomics.notify(shared, SEARCHING);
    },
  };
}

/**
 * Lets a background thread (the search index's) stand aside while hooks are caught faster than
 * FLOOD_RATE, instead of running at the lowest priority beside the thread that serves them.
 *
 * Why not the priority alone: a thread at SCHED_IDLE (or nice 19) on a core that catching
 * saturates is preempted anywhere, also while it holds a lock that the engine's allocator and
 * collector share between threads; the serving thread then waits on that lock until the starved
 * thread gets a slice. Measured on one pinned core (BUN_JSC_logGC, durability full, 30,000
 * hooks/s): the serving thread's young-generation collections paused 500 ms in all over 10 s, up to
 * 148 ms each, with the index thread working, against 220 ms and 4 ms at most without it
 * (docs/benchmarks.md). A thread that waits here allocates nothing and holds no lock.
 *
 * `shared` is createFloodCounters()'s memory: `wait()` blocks the calling thread (Atomics.wait:
 * only a worker may) while the hooks it counts come faster than `floodRate`, looking every
 * WINDOW_MS, at most MAX_WAIT_MS, and never while a search is waiting (it wakes at once when one
 * begins to).
 */
export function createFloodWatch(opts: { shared: Int32Array; floodRate?: number; now?: () => number; sleep?: (ms: number) => void }) {
  const { shared } = opts;
  const floodRate = opts.floodRate ?? FLOOD_RATE;
  const now = opts.now ?? (() => performance.now());
  // Woken early by a search beginning to wait (createFloodCounters' notify).
  const sleep = opts.sleep ?? ((ms: number) => void Atomics.wait(shared, SEARCHING, 0, ms));
  // Not 0 rather than above 0: Atomics.wait returns at once on any other value, so a count gone wrong
  // (below 0) must end the wait too, not turn its sleeps into a spin.
  const searching = () => Atomics.load(shared, SEARCHING) !== 0;
  let lastCount: number = Atomics.load(shared, CAUGHT);
  let lastAt = now();
  let lastRate = 0;

  /**
   * Hooks a second over the last window: measured again when the previous measure is at least
   * WINDOW_MS old, else the previous one (back-to-back batches of a steady rate are not slowed by
   * a measure each).
   */
  function rate(): number {
    const at = now();
    const elapsed = at - lastAt;
    if (elapsed < WINDOW_MS) return lastRate;
    const count: number = Atomics.load(shared, CAUGHT);
    // The counter wraps past 2^31 hooks: the difference of two 32-bit values stays right.
    lastRate = (((count - lastCount) | 0) * 1000) / elapsed;
    (lastCount = count), (lastAt = at);
    return lastRate;
  }

  return {
    rate,
    /** Blocks while hooks come faster than the flood rate and no search waits; returns the ms waited. */
    wait(): number {
      const start = now();
      // A measure older than a few windows says nothing about now: the rate is measured from here
      // (this batch goes on; a flood is seen at the next one), so work after a quiet moment never waits.
      if (start - lastAt > 4 * WINDOW_MS) (lastCount = Atomics.load(shared, CAUGHT)), (lastAt = start), (lastRate = 0);
      while (!searching() && rate() > floodRate && now() - start < MAX_WAIT_MS) sleep(WINDOW_MS);
      return now() - start;
    },
  };
}
