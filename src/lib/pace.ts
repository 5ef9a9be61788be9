/**
 * For long jobs done in slices on the thread that serves HTTP (deleting a channel, retention):
 * after a slice that started at `startedAt` (performance.now()), waits as long as the slice took,
 * and at least one turn of the event loop. The job then takes at most half of the thread, and the
 * WAL it writes leaves the checkpoint thread time to keep up: without the rest, catching waited up
 * to a few hundred milliseconds while a large channel was deleted.
 */
export function restAfter(startedAt: number): Promise<void> {
  const took = performance.now() - startedAt;
  return new Promise((resolve) => (took >= 1 ? setTimeout(resolve, took) : setImmediate(resolve)));
}
