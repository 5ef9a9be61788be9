import type { ChangeSink } from "../hooks/changes";
import { doublingDelay } from "../lib/backoff";
import type { Log } from "../lib/log";
import { FLUSH_WAIT_MS, GATHER_MS, type Search, type Source } from ".";
import { createFloodCounters } from "../lib/serving-busy";
import { pack, type Pack } from "./pack";
import type { SearchStore } from "./store";

/** Messages to the index thread (db/sqlite/search-thread.ts says what each asks) and from it. */
export type ToIndexer =
  | { type: "open"; dataPath: string; indexPath: string; flood: Int32Array }
  | ({ type: "caught"; bytes: number } & Pack)
  | { type: "left-out"; ids: string[] }
  | { type: "flush" | "sweep" | "purge"; seq: number; from?: string }
  | { type: "start" }
  | { type: "close" };
export type FromIndexer =
  | { type: "done"; seq: number }
  | { type: "took"; bytes: number }
  | { type: "took-ids" }
  | { type: "warn"; message: string; fields?: Record<string, unknown> }
  | { type: "fatal"; error: string }
  | { type: "closed" };

/**
 * Bytes of caught rows handed over that the thread has not taken yet, at most. A thread starved of
 * CPU during a flood takes no messages: past this, only ids are handed over (a sweep reads the
 * hooks back), so memory stays bounded however long the flood lasts.
 */
const MAX_IN_FLIGHT_BYTES = 8 * 1024 * 1024;
/** A failed index thread is started again after RESTART_FIRST_MS, doubling with each failure in a row up to RESTART_MAX_MS. */
const RESTART_FIRST_MS = 1000;
const RESTART_MAX_MS = 60_000;
/** A thread that ran this long before failing starts the doubling over. */
const RESTART_RESET_MS = 5 * 60_000;

/**
 * The search index written by its own thread (db/sqlite/search-thread.ts), for SQLite with a data file: caught
 * batches are handed over as the change sink reports them, those of GATHER_MS in one message (the
 * thread that catches builds no document and writes no index), and searches read the index through `store`,
 * a connection of their own. A search first waits until the thread indexed every batch handed to
 * it before (FLUSH_WAIT_MS at most), so a hook is found as soon as its sender has the 200. If the
 * thread fails, the error is logged, searches find what was indexed until then, and the thread is
 * started again (after 1 s, doubling up to 60 s while it keeps failing), indexing what it missed.
 */
export function createThreadedSearch(deps: {
  store: SearchStore;
  thread: { url: string; dataPath: string; indexPath: string };
  changes: ChangeSink;
  log: Log;
  /** MAX_IN_FLIGHT_BYTES (tests make it small). */
  maxInFlightBytes?: number;
}): Search {
  const { store, log } = deps;
  const maxInFlight = deps.maxInFlightBytes ?? MAX_IN_FLIGHT_BYTES;
  let worker: Worker;
  /** Whether a thread is running (false from its failure until it was started again). */
  let dead = false;
  let closed = false;
  /** Batches handed over, and how many of them the thread had when it last answered a flush. */
  let handed = 0;
  let confirmed = 0;
  let seq = 0;
  let inFlight = 0;
  const pending = new Map<number, () => void>();
  let onClosed: (() => void) | undefined;
  /** Failures in a row (a thread that ran RESTART_RESET_MS counts as a fresh start), and the timer that starts it again. */
  let failures = 0;
  let startedAt = 0;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;
  /** Whether `start` was asked: a thread started again then indexes what is not indexed yet. */
  let started = false;
  const post = (message: ToIndexer) => worker.postMessage(message);
  /**
   * Shared with the thread (lib/serving-busy.ts): the hooks caught here, by which it stands aside
   * while they come in a flood, and the searches waiting for it, which end that at once.
   */
  const flood = createFloodCounters();

  function stop(why: string): void {
    if (dead) return;
    dead = true;
    for (const resolve of pending.values()) resolve();
    pending.clear();
    inFlight = 0;
    // Started again, the thread sweeps every hook: ids held back need not be handed over.
    (heldFrom = undefined), (idsTaken = true);
    worker.terminate();
    if (closed) return void onClosed?.();
    // Started again after a pause that doubles with each failure in a row; its start indexes every
    // hook not indexed yet, those lost with the failed thread included.
    if (performance.now() - startedAt > RESTART_RESET_MS) failures = 0;
    const waitMs = doublingDelay(failures++, { initial: RESTART_FIRST_MS, max: RESTART_MAX_MS });
    log.error(`the search index thread stopped; starting it again in ${waitMs / 1000}s (searches find the hooks indexed until now)`, { error: why });
    restartTimer = setTimeout(spawn, waitMs);
  }

  function spawn(): void {
    restartTimer = undefined;
    worker = new Worker(deps.thread.url);
    dead = false;
    startedAt = performance.now();
    worker.onmessage = (event: MessageEvent<FromIndexer>) => {
      const m = event.data;
      if (m.type === "done") pending.get(m.seq)?.(), pending.delete(m.seq);
      else if (m.type === "took") inFlight -= m.bytes;
      else if (m.type === "took-ids") (idsTaken = true), postHeldIds();
      else if (m.type === "warn") log.warn(m.message, m.fields);
      else if (m.type === "fatal") stop(m.error);
      else onClosed?.();
    };
    worker.onerror = (event) => stop(event.message);
    // Not unref()'d: with an unref()'d worker, Bun's main thread spun (a core's worth of CPU, measured).
    post({ type: "open", dataPath: deps.thread.dataPath, indexPath: deps.thread.indexPath, flood: flood.shared });
    if (started) post({ type: "start" });
  }
  spawn();

  /** Asks the thread for a flush, a sweep or a purge; resolves once it answered (at once if it stopped). */
  function ask(type: "flush" | "sweep" | "purge", from?: string): Promise<void> {
    if (dead) return Promise.resolve();
    const n = ++seq;
    return new Promise<void>((resolve) => {
      pending.set(n, resolve);
      post({ type, seq: n, from });
    });
  }

  /**
   * Ids left out while the thread has not taken the last ids handed over: only the smallest is
   * kept (the thread sweeps every hook above it), so a starved thread's queue holds one such
   * message, not one per batch of a flood.
   */
  let idsTaken = true;
  let heldFrom: string | undefined;

  function handOverIds(ids: readonly (string | { id: string })[]): void {
    let smallest: string | undefined;
    for (const x of ids) {
      const id = typeof x === "string" ? x : x.id;
      if (smallest === undefined || id < smallest) smallest = id;
    }
    if (smallest === undefined) return;
    if (heldFrom === undefined || smallest < heldFrom) heldFrom = smallest;
    if (idsTaken) postHeldIds();
  }

  function postHeldIds(): void {
    if (heldFrom === undefined || dead) return;
    post({ type: "left-out", ids: [heldFrom] });
    (heldFrom = undefined), (idsTaken = false);
  }

  /**
   * Rows gathered for the next message (the rows as the sink reported them: nothing is copied
   * until they are packed), their bytes, and the timer that posts them.
   */
  let gathered: Source[] = [];
  let gatheredBytes = 0;
  let gatherTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Posts what was gathered: one message for every batch caught in GATHER_MS, its rows packed into
   * one buffer that is transferred, not copied (pack.ts).
   */
  function handOver(): void {
    if (gatherTimer) clearTimeout(gatherTimer), (gatherTimer = undefined);
    if (gathered.length === 0) return;
    const rows = gathered;
    const bytes = gatheredBytes;
    (gathered = []), (gatheredBytes = 0);
    if (dead) return;
    // Its rows' ids read in place: a starved thread's flood takes this path for most batches.
    if (inFlight + bytes > maxInFlight) return handOverIds(rows);
    inFlight += bytes;
    const packed = pack(rows);
    worker.postMessage({ type: "caught", bytes, ...packed } satisfies ToIndexer, [packed.buffer]);
  }

  function enqueue(rows: readonly Source[]): void {
    if (dead || closed || rows.length === 0) return;
    flood.caught(rows.length);
    handed++;
    for (const r of rows) {
      gathered.push(r);
      gatheredBytes += r.body.byteLength + (typeof r.headers === "string" ? r.headers.length : 256) + 256;
    }
    gatherTimer ??= setTimeout(handOver, GATHER_MS);
  }
  deps.changes.subscribe((change, origin) => {
    if (origin === "local" && change.kind === "caught") enqueue(change.hooks);
  });

  async function flush(): Promise<void> {
    if (confirmed >= handed) return;
    handOver();
    postHeldIds();
    const target = handed;
    flood.searching(+1);
    try {
      await ask("flush");
    } finally {
      flood.searching(-1);
    }
    confirmed = Math.max(confirmed, target);
  }

  return {
    leftOut: (ids: readonly string[]) => void (dead || closed || ids.length === 0 || (handed++, handOverIds(ids))),
    /** Counts `hooks` of other work on this thread (a bulk job's batch) as caught, for the index thread's flood watch. */
    busy: (hooks: number) => void flood.caught(hooks),
    async search(query) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([flush(), new Promise((resolve) => (timer = setTimeout(resolve, FLUSH_WAIT_MS)))]);
      clearTimeout(timer);
      return store.search(query);
    },
    async count(query, max) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([flush(), new Promise((resolve) => (timer = setTimeout(resolve, FLUSH_WAIT_MS)))]);
      clearTimeout(timer);
      return store.count(query, max);
    },
    enqueue,
    flush,
    start: () => void ((started = true), dead || post({ type: "start" })),
    sweep: (from?: string) => ask("sweep", from),
    purge: () => ask("purge"),
    indexSize: () => store.sizeBytes(),
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      clearTimeout(restartTimer);
      handOver();
      postHeldIds();
      if (dead) return;
      await new Promise<void>((resolve) => {
        const timeout = setTimeout(() => stop("it did not close within 10 s"), 10_000);
        onClosed = () => (clearTimeout(timeout), resolve());
        post({ type: "close" });
      });
      dead = true;
      worker.terminate();
    },
  };
}
