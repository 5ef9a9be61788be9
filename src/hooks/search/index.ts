import type { CaughtRow, ChangeSink } from "../../db/changes";
import type { Clock } from "../../lib/clock";
import { ulidFloor } from "../../lib/ids";
import type { Log } from "../../lib/log";
import { decodePayload } from "../payload";
import type { RawHook } from "../store";
import { searchDoc, type SearchDoc } from "./document";
import type { SearchQuery, SearchStore } from "./store";

export { parseSearch, hasTerms, type SearchTerms } from "./query";
export type { SearchQuery, SearchStore } from "./store";

/**
 * Hooks indexed per transaction: enough to amortise the commit, few enough that one holds the
 * thread that also catches for tens of milliseconds at most (a turn of the event loop between them).
 */
const BATCH = 250;
/** How long caught hooks wait to be indexed together, by default. */
export const GATHER_MS = 20;
/** How often, and how far back, hooks caught here or elsewhere but not indexed are looked for. */
const SWEEP_MS = 30_000;
const SWEEP_BACK_MS = 5 * 60_000;
/** Hooks looked at per statement of a sweep. */
const SCAN = 5000;

type Source = Pick<RawHook, "id" | "channel" | "method" | "query" | "ip" | "headers" | "body" | "eventType">;

/**
 * The search index's upkeep and reads. Caught batches are indexed after they are durable (the
 * change sink's `caught`), gathered for GATHER_MS, in transactions of their own: catching never
 * waits for it. At start every hook not indexed yet is indexed, oldest first, a batch per turn
 * of the event loop (a database that predates the index, or hooks whose indexing a crash cut
 * short); a sweep repeats it every SWEEP_MS. A search first indexes what is waiting here, so a
 * hook this instance caught is found as soon as its sender has the 200.
 */
export function createSearch(deps: {
  store: SearchStore;
  changes: ChangeSink;
  read: (id: string) => Promise<RawHook | undefined>;
  clock: Clock;
  log: Log;
  /** How long caught hooks wait to be indexed together (GATHER_MS; tests that watch the catching path alone lengthen it). */
  gatherMs?: number;
}) {
  const gatherMs = deps.gatherMs ?? GATHER_MS;
  const { store, log } = deps;
  /** Caught rows, as the sink handed them: nothing is parsed or decoded until they are indexed. */
  let waiting: (Source | CaughtRow)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let closed = false;
  let sweeper: ReturnType<typeof setInterval> | undefined;
  let sweeping = false;

  async function docs(rows: readonly Source[]): Promise<SearchDoc[]> {
    return Promise.all(rows.map(async (h) => searchDoc(h, await decodePayload(h.headers, h.body))));
  }

  /** Indexes what waits, in batches, one after another; never rejects (a failure is logged, the sweep retries). */
  function drain(): Promise<void> {
    if (timer) clearTimeout(timer), (timer = undefined);
    const rows = waiting;
    waiting = [];
    if (rows.length === 0) return running;
    running = running.then(async () => {
      for (let i = 0; i < rows.length; i += BATCH) {
        if (i > 0) await new Promise((r) => setImmediate(r)); // catching goes on between batches
        try {
          await store.index(await docs(rows.slice(i, i + BATCH).map(fromCaught)));
        } catch (error) {
          log.warn("could not index hooks for search; they will be indexed later", { count: rows.length, error: String(error) });
        }
      }
    });
    return running;
  }

  function enqueue(rows: readonly (Source | CaughtRow)[]): void {
    if (closed) return;
    for (const r of rows) waiting.push(r);
    timer ??= setTimeout(() => void drain(), gatherMs);
  }

  deps.changes.subscribe((change, origin) => {
    if (origin !== "local" || change.kind !== "caught") return;
    enqueue(change.hooks);
  });

  /**
   * Indexes the hooks not indexed yet with ids above `from` (every hook when undefined), oldest
   * first, looking at SCAN of them per turn of the event loop.
   */
  async function sweep(from?: string): Promise<void> {
    if (sweeping) return;
    sweeping = true;
    try {
      let after = from;
      while (!closed) {
        const { ids, last } = await store.unindexed(after, SCAN);
        if (last === undefined) break;
        after = last;
        if (ids.length === 0) {
          await new Promise((r) => setTimeout(r, 0));
          continue;
        }
        const rows = (await Promise.all(ids.map(deps.read))).filter((h): h is RawHook => h !== undefined);
        await store.index(await docs(rows));
        await new Promise((r) => setTimeout(r, 0));
      }
    } catch (error) {
      log.warn("could not index older hooks for search", { error: String(error) });
    } finally {
      sweeping = false;
    }
  }

  return {
    /** Ids of a search's page, newest first, once what this instance caught is indexed. */
    async search(query: SearchQuery): Promise<string[]> {
      await drain();
      return store.search(query);
    },
    /** Indexes hooks stored without being caught (imports), soon. */
    enqueue,
    /** Resolves once what waits now is indexed. */
    flush: drain,
    /** Starts the sweeps: of every hook at once, then of the last SWEEP_BACK_MS every SWEEP_MS. */
    start(): void {
      void sweep();
      sweeper = setInterval(() => void sweep(ulidFloor(deps.clock.now() - SWEEP_BACK_MS)), SWEEP_MS);
      sweeper.unref?.();
    },
    sweep,
    indexSize: () => store.sizeBytes(),
    async close(): Promise<void> {
      closed = true;
      if (sweeper) clearInterval(sweeper);
      await drain();
    },
  };
}

/** A caught row (headers as JSON text) as the document builder reads it. */
function fromCaught(h: Source | CaughtRow): Source {
  if (typeof h.headers !== "string") return h as Source;
  return { id: h.id, channel: h.channel, method: h.method, query: h.query, ip: h.ip, headers: JSON.parse(h.headers), body: h.body, eventType: h.eventType };
}

export type Search = ReturnType<typeof createSearch>;
