import type { Log } from "./log";

/**
 * Reads parts of a state again when told they changed, one read at a time: parts marked while a
 * read runs are read by the next round, once each however often they were marked. A read that
 * fails is logged, and the part is read again when next marked.
 *
 * @example const r = createReloader({ channels: () => channels.reload() }, log); r.mark("channels");
 */
export function createReloader<P extends string>(reads: Record<P, () => Promise<unknown>>, log: Pick<Log, "error">) {
  const dirty = new Set<P>();
  let running: Promise<void> | undefined;

  async function run(): Promise<void> {
    while (dirty.size > 0) {
      const parts = [...dirty];
      dirty.clear();
      for (const part of parts) {
        try {
          await reads[part]();
        } catch (error) {
          log.error("reading shared state failed", { part, error: String(error) });
        }
      }
    }
    running = undefined;
  }

  function mark(part: P): void {
    dirty.add(part);
    running ??= run();
  }

  return {
    mark,
    markAll: () => (Object.keys(reads) as P[]).forEach(mark),
    /** Resolves once nothing marked is left to read. */
    settled: (): Promise<void> => running ?? Promise.resolve(),
  };
}
