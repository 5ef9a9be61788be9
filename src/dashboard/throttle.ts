import type { Clock } from "../lib/clock";

/**
 * Counts failures per key (an account, an ip) in a sliding window: once `limit` failures fell
 * within `windowMs`, `wait` says how many seconds are left before the oldest leaves the window.
 * At most `maxKeys` keys are kept; the oldest go first, so a flood of ips cannot grow memory.
 */
export function createThrottle(opts: { clock: Clock; limit: number; windowMs: number; maxKeys?: number }) {
  const { clock, limit, windowMs } = opts;
  const maxKeys = opts.maxKeys ?? 10_000;
  const failures = new Map<string, number[]>();

  function recent(key: string): number[] {
    const now = clock.now();
    const times = (failures.get(key) ?? []).filter((t) => t > now - windowMs);
    if (times.length === 0) failures.delete(key);
    else failures.set(key, times);
    return times;
  }

  return {
    /** Seconds to wait before another try, 0 when one is allowed now. */
    wait(key: string): number {
      const times = recent(key);
      if (times.length < limit) return 0;
      return Math.max(1, Math.ceil((times[times.length - limit]! + windowMs - clock.now()) / 1000));
    },
    fail(key: string): void {
      const times = recent(key);
      times.push(clock.now());
      failures.delete(key);
      failures.set(key, times.slice(-limit));
      if (failures.size > maxKeys) failures.delete(failures.keys().next().value!);
    },
    clear(key: string): void {
      failures.delete(key);
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;
