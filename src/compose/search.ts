import { createSearch } from "../search";
import { createThreadedSearch } from "../search/threaded";
import type { Base } from "./base";

/**
 * The search index, kept after caught batches commit: catching never waits for it. With SQLite's
 * index thread it is written there (search/threaded.ts); else on this thread.
 */
export function createSearchService({ storage, clock, log }: Base, opts: { gatherMs?: number; maxWaitingBytes?: number }) {
  const { changes } = storage;
  return storage.searchThread
    ? createThreadedSearch({ store: storage.search, thread: storage.searchThread, changes, log })
    : createSearch({
        store: storage.search,
        changes,
        read: (id) => storage.hooks.getHook(id),
        clock,
        log,
        gatherMs: opts.gatherMs,
        maxWaitingBytes: opts.maxWaitingBytes,
      });
}

export type SearchService = ReturnType<typeof createSearchService>;
