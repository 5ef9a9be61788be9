/**
 * The pace of a handler's attempts (`rate = "10/s"`): starts are spread evenly, one every
 * `per / count` milliseconds, none sooner (no burst: 100 hooks at 10/s start over 9.9 s). An
 * attempt that would start sooner waits in the queue; nothing is dropped.
 *
 * Per instance: each instance sharing a PostgreSQL database paces the starts it claims, so N
 * instances may together start up to N times the rate (their claims are not coordinated by time;
 * the handler's concurrency, which they share, still bounds them together).
 */
export function createPacer() {
  /** The earliest start of each paced handler's next attempt. */
  const next = new Map<string, number>();
  return {
    /** How many of `free` attempts may start at `now`: 1 once the next start has come, else 0. */
    allow(name: string, now: number, free: number): number {
      return (next.get(name) ?? -Infinity) <= now ? Math.min(1, free) : 0;
    },
    /** `count` attempts started at `now`: the next one may start an interval after the last of them. */
    started(name: string, rate: { count: number; per: number }, now: number, count: number): void {
      const interval = rate.per / rate.count;
      next.set(name, Math.max(next.get(name) ?? -Infinity, now) + count * interval);
    },
    /** The earliest start of the handler's next attempt (now when it may start at once). */
    nextStart(name: string, now: number): number {
      return Math.max(now, next.get(name) ?? now);
    },
  };
}
