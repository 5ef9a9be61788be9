/**
 * The circuit breaker of each handler that has one (`breaker = { failures = 5, cool_down = "30s" }`;
 * off by default). Closed, it counts the handler's attempts failed in a row; at `failures` it opens:
 * the handler's attempts wait `cool_down` (queued, nothing is dropped), then it is half-open and
 * lets one attempt through. That attempt's success closes it; its failure opens it for another
 * cool-down. Attempts already running when it opened end as they do; their results are not counted
 * (those that end after the trial started are taken for its result: the gate does not tell attempts apart).
 *
 * Per instance: each instance sharing a PostgreSQL database counts the failures it sees.
 */
export type BreakerState = "closed" | "open" | "half_open";

export type BreakerSetting = { failures: number; coolDown: number };

type Entry = { state: BreakerState; failures: number; until: number; trial: boolean };

/** `changed` is told of each transition (the log, the metric, the dashboard's state), with the failures that opened it. */
export function createBreakers(changed: (name: string, state: BreakerState, detail: { failures: number; until?: number }) => void) {
  const entries = new Map<string, Entry>();
  const entryOf = (name: string): Entry => {
    let e = entries.get(name);
    if (!e) entries.set(name, (e = { state: "closed", failures: 0, until: 0, trial: false }));
    return e;
  };
  /** An open breaker whose cool-down has passed is half-open. */
  const current = (name: string, now: number): Entry => {
    const e = entryOf(name);
    if (e.state === "open" && now >= e.until) {
      e.state = "half_open";
      e.trial = false;
      changed(name, "half_open", { failures: e.failures });
    }
    return e;
  };

  return {
    /** How many of `free` attempts may start: all while closed, none while open, one trial while half-open. */
    allow(name: string, now: number, free: number): number {
      const e = current(name, now);
      if (e.state === "closed") return free;
      if (e.state === "open" || e.trial) return 0;
      return Math.min(1, free);
    },
    started(name: string, now: number): void {
      const e = current(name, now);
      if (e.state === "half_open") e.trial = true;
    },
    /** When attempts may start again: now while closed, the cool-down's end while open, never while a trial runs. */
    nextStart(name: string, now: number): number {
      const e = current(name, now);
      if (e.state === "closed") return now;
      if (e.state === "open") return e.until;
      return e.trial ? Infinity : now;
    },
    /** An attempt ended; resolves to true when its failure opened the breaker. */
    finished(name: string, setting: BreakerSetting, ok: boolean, now: number): boolean {
      const e = current(name, now);
      // Started before it opened: while open, and half-open until the trial starts, not counted.
      if (e.state === "open" || (e.state === "half_open" && !e.trial)) return false;
      if (ok) {
        e.failures = 0;
        if (e.state === "half_open") (e.state = "closed"), (e.trial = false), changed(name, "closed", { failures: 0 });
        return false;
      }
      e.failures++;
      if (e.state === "closed" && e.failures < setting.failures) return false;
      e.state = "open";
      e.trial = false;
      e.until = now + setting.coolDown;
      changed(name, "open", { failures: e.failures, until: e.until });
      return true;
    },
    /** The breaker's state, the failures in a row it counted, and when an open one lets a trial through. */
    view(name: string, now: number): { state: BreakerState; failures: number; until: number | null } {
      const e = current(name, now);
      return { state: e.state, failures: e.failures, until: e.state === "open" ? e.until : null };
    },
  };
}
