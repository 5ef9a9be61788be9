/**
 * The search index thread (a Bun Worker): builds the hooks' documents and writes the index (FTS5)
 * on connections of its own, off the thread that catches (search/threaded.ts starts it).
 * It runs the same indexer as a thread-less instance (search/index.ts), reading the hooks from the data
 * file and writing only the index's own file (search-index-file.ts), at a lower scheduling priority:
 * when the cores are busy, catching gets them first.
 *
 * Messages in: "open" once, "caught" (rows as the change sink reported them, packed: search/pack.ts), "left-out" (ids of
 * hooks to sweep), "flush", "sweep" and "start"; "close". Out: "took" for each "caught" (the bytes
 * it held are the thread's now), "done" for each flush or sweep, "warn", "fatal" if it cannot
 * work, "closed".
 */
import { Database } from "bun:sqlite";
import { systemClock } from "../../lib/clock";
import type { Log } from "../../lib/log";
import { heapSize } from "bun:jsc";
import { keepMemoryDown } from "../../lib/memory";
import { createFloodWatch } from "../../lib/serving-busy";
import { lowerThreadPriority } from "../../lib/thread-priority";
import { createSearch, type Search, type Source } from "../../search";
import { attachSearchIndex } from "./search-index-file";
import { unpack } from "../../search/pack";
import type { FromIndexer, ToIndexer } from "../../search/threaded";
import { createSearchStore } from "./search-store";

declare const self: Worker;

/** This thread's heap above which its keeper collects: it holds about 7 MiB while indexing a flood (measured). */
const THREAD_HEAP_MARK_BYTES = 48 * 1024 * 1024;
/** Hooks the index thread writes per transaction. */
const INDEX_THREAD_BATCH = 256;

const post = (message: FromIndexer) => self.postMessage(message);
const log: Log = {
  info() {},
  warn: (message, fields) => post({ type: "warn", message, fields }),
  error: (message, fields) => post({ type: "warn", message, fields }),
};
let sql: Database | undefined;
let search: Search | undefined;
let flood: ReturnType<typeof createFloodWatch> | undefined;

function open(m: Extract<ToIndexer, { type: "open" }>): void {
  lowerThreadPriority();
  // This thread's heap is its own: its garbage is collected here (lib/memory.ts), by its own size.
  // The process's resident set, the default, is mostly the serving thread's and SQLite's, which a
  // collection here cannot lower: above its mark this thread collected its 7 MiB heap every second
  // through a flood (10 to 86 ms each, its marking helpers competing with the serving thread).
  keepMemoryDown({ rss: heapSize, softMarkBytes: THREAD_HEAP_MARK_BYTES });
  sql = new Database(m.dataPath, { create: false, strict: true });
  sql.run("PRAGMA busy_timeout = 5000");
  attachSearchIndex(sql, m.indexPath);
  const read = sql.prepare("SELECT id, channel, method, query, headers, body, ip, event_type AS eventType FROM main.hooks WHERE id = ?");
  const store = createSearchStore(sql, { ownWrites: true });
  flood = createFloodWatch({ shared: m.flood });
  search = createSearch({
    // Each batch first waits while hooks come in a flood (lib/serving-busy.ts), unless a
    // search is waiting for the index: a flood's hooks are indexed after it, a search's at once.
    // The purge of deleted hooks' entries (a retention's, a bulk delete's) and the vocabulary's prune wait the same way.
    store: {
      ...store,
      index: (docs) => (flood?.wait(), store.index(docs)),
      purge: (after, scan) => (flood?.wait(), store.purge!(after, scan)),
      prune: (after, scan) => (flood?.wait(), store.prune!(after, scan)),
    },
    read: async (id) => (read.get(id) as Source | null) ?? undefined,
    clock: systemClock,
    log,
    // Catching is on another thread: larger transactions, fewer FTS5 segments to merge (a quarter
    // less CPU a hook than 64, bench/index-cpu.ts).
    batch: INDEX_THREAD_BATCH,
  });
}

self.onmessage = async (event: MessageEvent<ToIndexer>) => {
  const m = event.data;
  try {
    if (m.type === "open") return open(m);
    if (!search) return;
    // Nothing of a flood's hooks is unpacked (nor any garbage made) while it lasts.
    if (m.type === "caught") flood?.wait(), search.enqueue(unpack(m)), post({ type: "took", bytes: m.bytes });
    else if (m.type === "left-out") search.leftOut(m.ids), post({ type: "took-ids" });
    else if (m.type === "start") search.start();
    else if (m.type === "flush") await search.flush(), post({ type: "done", seq: m.seq });
    else if (m.type === "sweep") await search.sweep(m.from), post({ type: "done", seq: m.seq });
    else if (m.type === "purge") await search.purge(), post({ type: "done", seq: m.seq });
    else if (m.type === "close") {
      await search.close();
      sql?.close(false);
      (search = undefined), (sql = undefined);
      post({ type: "closed" });
    }
  } catch (error) {
    post({ type: "fatal", error: String(error) });
  }
};
