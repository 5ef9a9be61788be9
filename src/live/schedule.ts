import type { ChangeLog } from "./bus";
import { asCaller } from "../lib/caller";

/** Shortest time between two writes of the streams (a dashboard's 200 ms budget leaves room). */
export const GATHER_MS = 25;
/**
 * The same under load: once a write carried BUSY_CHANGES changes or more, the next waits this
 * long. A write to a socket costs far more than the bytes in it (tens of µs on loopback), so 50
 * streams written 7 times a second instead of 40 spare the catching endpoint most of it, and a
 * hook still shows within 200 ms.
 */
export const GATHER_BUSY_MS = 150;
export const BUSY_CHANGES = 100;

/**
 * When the streams are written: at most once per GATHER_MS (GATHER_BUSY_MS under load), so under
 * a burst each client gets one write per interval holding every change since the last, instead of
 * one per turn of the event loop; at once when half of the kept changes wait (before they run past
 * the streams, which would all get `reset`). Changes recorded while a write is under way wait for
 * the next. `write` resolves with the number of changes it carried; it may ask for another write
 * with `again` (a stream that joined while it was made), and one that throws is tried again.
 */
export function createWriteLoop(log: Pick<ChangeLog, "head" | "kept">, write: (again: () => void) => Promise<number>) {
  let running: Promise<void> | undefined;
  let again = false;
  const more = () => void (again = true);
  /** Changes the last write carried: many mean load, and the next write waits longer. */
  let lastCount = 0;
  /** The head of the log when the last write began. */
  let writtenTo = 0;
  let lastWrite = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function wake(): void {
    if (running) return more();
    const backlog = log.head() - writtenTo >= log.kept / 2;
    if (timer && !backlog) return;
    if (timer) clearTimeout(timer), (timer = undefined);
    const wait = backlog ? 0 : lastWrite + (lastCount >= BUSY_CHANGES ? GATHER_BUSY_MS : GATHER_MS) - performance.now();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        wake();
      }, wait);
      return;
    }
    lastWrite = performance.now();
    writtenTo = log.head();
    // Written for every stream, whoever's request reported the change: no caller's limits (lib/caller.ts).
    running = asCaller(undefined, () => write(more))
      .then((n) => void (lastCount = n), more)
      .finally(() => {
        running = undefined;
        if (again) (again = false), wake();
      });
  }

  return {
    wake,
    stop(): void {
      if (timer) clearTimeout(timer);
    },
  };
}
