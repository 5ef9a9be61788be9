/** The longest rest restAfter takes. */
export const MAX_REST_MS = 1000;

/**
 * For long jobs done in slices on the thread that serves HTTP (deleting a channel, retention):
 * after a slice that started at `startedAt` (performance.now()), waits as long as the slice took,
 * and at least one turn of the event loop. The job then takes at most half of the thread (or
 * `share` of it: 0.05 rests 19 times as long as the slice took; 1 rests one turn only), and the
 * WAL it writes leaves the checkpoint thread time to keep up: without the rest, catching waited up
 * to a few hundred milliseconds while a large channel was deleted.
 */
export function restAfter(startedAt: number, share = 0.5): Promise<void> {
  return rest(restFor(performance.now() - startedAt, share));
}

/**
 * How long (ms) a job rests after a slice that took `tookMs`, to take at most `share` of the
 * thread. A slice measured across a stall of the thread (a large schema compiled, a collection)
 * did not cost what it measured: the rest is MAX_REST_MS at most, never 19 times the stall.
 *
 * @example restFor(10, 0.5) // 10
 * @example restFor(10, 0.2) // 40
 */
export function restFor(tookMs: number, share: number): number {
  return share >= 1 ? 0 : Math.min(MAX_REST_MS, (tookMs * (1 - share)) / share);
}

/** Waits `ms`, and at least one turn of the event loop. */
export function rest(ms: number): Promise<void> {
  return new Promise((resolve) => (ms >= 1 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}
