/** How long shutdown lets delayed custom answers run before answering them at once. */
export const DELAY_GRACE_MS = 5_000;

/**
 * The waits of delayed custom answers (a channel's response `delay`, up to 5 minutes), which
 * shutdown can cut short: after `cut(graceMs)`, no wait ends later than `graceMs` from then,
 * those already running and those starting afterwards alike. A cut wait resolves as if its delay
 * had passed, so its sender gets the answer it was set to get, only sooner.
 *
 * @example
 *   const delays = createDelays();
 *   await delays.wait(300_000); // resolves after 5 minutes, or at most 5 s after delays.cut(5_000)
 */
export function createDelays(now: () => number = () => performance.now()) {
  type Wait = { due: number; timer: ReturnType<typeof setTimeout>; done: () => void };
  const waits = new Set<Wait>();
  let deadline = Infinity;

  function arm(w: Wait, ms: number): void {
    w.timer = setTimeout(w.done, Math.max(0, ms));
  }

  return {
    /** Resolves after `ms`, or at the deadline a cut set, whichever comes first. Never rejects. */
    wait(ms: number): Promise<void> {
      const start = now();
      const due = Math.min(start + ms, deadline);
      if (due <= start) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const w: Wait = { due, timer: undefined as never, done: () => (waits.delete(w), resolve()) };
        waits.add(w);
        arm(w, due - start);
      });
    },
    /** Waits end at the latest `graceMs` from now, from now on. */
    cut(graceMs: number): void {
      const at = now();
      deadline = Math.min(deadline, at + graceMs);
      for (const w of waits) {
        if (w.due <= deadline) continue;
        clearTimeout(w.timer);
        w.due = deadline;
        arm(w, deadline - at);
      }
    },
    /** Waits not yet over. */
    get pending(): number {
      return waits.size;
    },
  };
}
