import type { CaughtRow, ChangeSink } from "../hooks/changes";
import type { Clock } from "../lib/clock";
import { ulidFloor } from "../lib/ids";
import type { Log } from "../lib/log";
import { restAfter } from "../lib/pace";
import { decodePayload } from "../hooks/payload";
import type { HookSearch } from "../hooks/hook-search";
import type { RawHook } from "../hooks/store";
import { searchDoc, type SearchDoc } from "./document";
import { invalid } from "../lib/errors";
import type { ContractCheck, HookSearchPage } from "../hooks/hook-search";
import { asksNone, evaluate, firstContract, isEmpty, needlesOf, parseSearch, splitContract, syntax, uses, withReader, type QueryNode } from "./query";
import type { CountQuery, SearchQuery, SearchStore } from "./store";

export { parseSearch, hasTerms, type SearchTerms } from "./query";
export type { CountQuery, SearchQuery, SearchStore } from "./store";

/**
 * Hooks indexed per transaction: enough to amortise the commit, few enough that one holds the
 * thread that also catches for about 5 ms (250 showed in catching's p99: 59 ms against 25 at 64).
 */
const BATCH = 64;
/** How long caught hooks wait to be indexed together, by default. */
export const GATHER_MS = 20;
/**
 * How long a search waits for the index to catch up, at most. When catching takes every core, or a
 * sweep of many hooks must end first (hooks left out while the start-up sweep runs), a search then
 * answers from what is indexed so far (the newest hooks may be missing) rather than hang.
 */
export const FLUSH_WAIT_MS = 3000;
/** How often, and how far back, hooks caught here or elsewhere but not indexed are looked for. */
const SWEEP_MS = 30_000;
const SWEEP_BACK_MS = 5 * 60_000;
/** Sweeps between two purges of deleted hooks' entries (every 10 minutes). */
const PURGE_EVERY = 20;
/** Hooks looked at per statement of a sweep. */
const SCAN = 5000;
/**
 * Words of the vocabulary looked at per transaction of its prune, for each hook a batch indexes (a
 * look-up in the index each, about 32 µs at 1,000,000 words): 512 a transaction in the index
 * thread (about 16 ms), 128 on the thread that catches (about 4 ms, as a batch of 64 hooks).
 */
const PRUNE_SCAN_PER_HOOK = 2;
/**
 * While hooks are being caught (one came in the last BUSY_MS), indexing takes at most BUSY_SHARE
 * of the thread that also catches, resting between batches: under a sustained flood the index
 * lags, and catches up once the flood ends, instead of taking a third of the throughput.
 */
const BUSY_MS = 250;
const BUSY_SHARE = 0.05;
/**
 * Bodies held in memory for indexing, at most: past that, caught hooks are left to a sweep from
 * the first one left out (it reads them back from the database), so a flood holds bounded memory.
 */
const MAX_WAITING_BYTES = 4 * 1024 * 1024;
/** What a waiting row costs beside its body and headers (the object, its strings), roughly. */
const ROW_BYTES = 512;
const rowBytes = (r: Source | CaughtRow) => r.body.byteLength + (typeof r.headers === "string" ? r.headers.length : 0) + ROW_BYTES;

/** A hook as the indexer reads it: headers as an object, or as their JSON (a caught row, a row read back). */
export type Source = Pick<RawHook, "id" | "channel" | "method" | "query" | "ip" | "body" | "eventType"> & { headers: RawHook["headers"] | string };

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
  /** The sink whose caught batches are indexed (none in the index thread: threaded.ts hands them over). */
  changes?: ChangeSink;
  read: (id: string) => Promise<Source | undefined>;
  clock: Clock;
  log: Log;
  /** How long caught hooks wait to be indexed together (GATHER_MS; tests that watch the catching path alone lengthen it). */
  gatherMs?: number;
  /** Bodies held for indexing, at most (MAX_WAITING_BYTES; tests make it small). */
  maxWaitingBytes?: number;
  /** Hooks indexed per transaction (BATCH; the index thread, which does not catch, writes more at once). */
  batch?: number;
}) {
  const gatherMs = deps.gatherMs ?? GATHER_MS;
  const maxWaitingBytes = deps.maxWaitingBytes ?? MAX_WAITING_BYTES;
  const batch = deps.batch ?? BATCH;
  const { store, log } = deps;
  /** Caught rows, as the sink handed them: nothing is parsed or decoded until they are indexed. */
  const waiting: (Source | CaughtRow)[] = [];
  /** The ids in `waiting`. */
  const queued = new Set<string>();
  /** The bodies' bytes in `waiting`, until their batch is indexed. */
  let waitingBytes = 0;
  /** Set when caught hooks were left out of `waiting`: the id after which a sweep finds them. */
  let behind: string | undefined;
  let dropped = 0;
  let lastQueued: string | undefined;
  /** Hooks handed to the index (queued or left to a sweep), and of those, how many are done. */
  let handed = 0;
  let done = 0;
  /** Searches waiting until `done` reaches their target: while there are any, indexing does not rest. */
  const waiters: { target: number; resolve: () => void }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Ends the pump's rest between batches early: a search is waiting for what it indexes. */
  let wake: (() => void) | undefined;
  let pumping: Promise<void> | undefined;
  let closed = false;
  let sweeper: ReturnType<typeof setInterval> | undefined;
  let sweeping = false;
  let sweepAgain: string | undefined;
  /** Resolved when the sweep asked for during another one (sweepAgain) has ended. */
  let againDone: PromiseWithResolvers<void> | undefined;
  let purging = false;
  let lastCaughtAt = Number.NEGATIVE_INFINITY;
  const share = () => (waiters.length > 0 || closed || performance.now() - lastCaughtAt > BUSY_MS ? 1 : BUSY_SHARE);

  async function docs(rows: readonly Source[]): Promise<SearchDoc[]> {
    return Promise.all(rows.map(fromCaught).map(async (h) => searchDoc(h, await decodePayload(h.headers, h.body))));
  }

  function settle(): void {
    for (let i = waiters.length - 1; i >= 0; i--) if (waiters[i]!.target <= done) waiters.splice(i, 1)[0]!.resolve();
  }

  /**
   * One loop indexes what waits, a batch at a time, resting between batches (catching goes on),
   * then sweeps from where hooks were left out. Never rejects: a failure is logged, and the
   * periodic sweep indexes those hooks later.
   */
  function pump(): Promise<void> {
    if (timer) clearTimeout(timer), (timer = undefined);
    pumping ??= (async () => {
      while (waiting.length > 0 || behind !== undefined) {
        if (waiting.length > 0) {
          const startedAt = performance.now();
          const rows = waiting.splice(0, batch);
          try {
            await store.index(await docs(rows));
          } catch (error) {
            log.warn("could not index hooks for search; they will be indexed later", { count: rows.length, error: String(error) });
          }
          for (const r of rows) (waitingBytes -= rowBytes(r)), queued.delete(r.id);
          done += rows.length;
          settle();
          await rest(startedAt);
        } else {
          const from = behind!;
          const n = dropped;
          (behind = undefined), (dropped = 0);
          await sweep(from);
          done += n;
          settle();
        }
      }
    })().finally(() => {
      pumping = undefined;
    });
    return pumping;
  }

  /** The rest after a batch (restAfter at share()), ended at once when a search starts waiting. */
  function rest(startedAt: number): Promise<void> {
    if (waiters.length > 0) return restAfter(startedAt, 1);
    return new Promise<void>((resolve) => {
      wake = resolve;
      void restAfter(startedAt, share()).then(resolve);
    }).finally(() => {
      wake = undefined;
    });
  }

  /** Resolves once every hook handed to the index so far is indexed. */
  function flush(): Promise<void> {
    if (done >= handed) return Promise.resolve();
    const reached = new Promise<void>((resolve) => waiters.push({ target: handed, resolve }));
    wake?.();
    void pump();
    return reached;
  }

  function enqueue(rows: readonly (Source | CaughtRow)[]): void {
    if (closed) return;
    for (const r of rows) {
      handed++;
      if (behind === undefined && waitingBytes + rowBytes(r) <= maxWaitingBytes) {
        waiting.push(r);
        queued.add(r.id);
        waitingBytes += rowBytes(r);
        lastQueued = r.id;
      } else {
        behind ??= lastQueued ?? ulidFloor(deps.clock.now() - SWEEP_BACK_MS);
        dropped++;
      }
    }
    timer ??= setTimeout(() => void pump(), gatherMs);
  }

  /** Hooks stored but not handed over (their ids only, the smallest first): a sweep indexes them. */
  function leftOut(ids: readonly string[]): void {
    if (closed || ids.length === 0) return;
    handed += ids.length;
    dropped += ids.length;
    // Every id above this one, and so the smallest of these, is swept (ids all have 26 characters).
    let smallest = ids[0]!;
    for (const id of ids) if (id < smallest) smallest = id;
    const from = smallest.slice(0, -1);
    behind = behind === undefined || from < behind ? from : behind;
    timer ??= setTimeout(() => void pump(), gatherMs);
  }

  deps.changes?.subscribe((change, origin) => {
    if (origin !== "local" || change.kind !== "caught") return;
    lastCaughtAt = performance.now();
    enqueue(change.hooks);
  });

  /**
   * Indexes the hooks not indexed yet with ids above `from` (every hook when undefined), oldest
   * first, looking at SCAN of them per turn of the event loop.
   */
  async function sweep(from?: string): Promise<void> {
    if (sweeping) {
      // One is running: it sweeps again from here when it ends (the smallest start wins), and
      // this resolves then, so a flush waiting for these hooks waits until they are indexed.
      sweepAgain = sweepAgain === undefined || (from ?? "") < sweepAgain ? (from ?? "") : sweepAgain;
      againDone ??= Promise.withResolvers<void>();
      return againDone.promise;
    }
    sweeping = true;
    try {
      let after = from;
      while (!closed) {
        const { ids, last } = await store.unindexed(after, SCAN);
        if (last === undefined) break;
        after = last;
        // Hooks waiting in the queue are indexed from it: a sweep during a backlog skips them.
        const todo = ids.filter((id) => !queued.has(id));
        if (todo.length === 0) {
          await new Promise((r) => setTimeout(r, 0));
          continue;
        }
        for (let i = 0; i < todo.length && !closed; i += batch) {
          const startedAt = performance.now();
          const rows = (await Promise.all(todo.slice(i, i + batch).map(deps.read))).filter((h) => h !== undefined);
          await store.index(await docs(rows));
          await restAfter(startedAt, share());
        }
      }
    } catch (error) {
      log.warn("could not index older hooks for search", { error: String(error) });
    } finally {
      sweeping = false;
      const again = sweepAgain;
      const waiting = againDone;
      (sweepAgain = undefined), (againDone = undefined);
      if (again !== undefined && !closed) void sweep(again).then(waiting?.resolve);
      else waiting?.resolve();
    }
  }

  /**
   * Removes the entries of deleted hooks (store.purge), SCAN at a time with rests like indexing's;
   * then, when enough were removed, the vocabulary's words no hook holds any longer (store.prune),
   * PRUNE_SCAN_PER_HOOK words for each hook of an indexing batch at a time.
   */
  async function purge(): Promise<void> {
    if (!store.purge || purging) return;
    purging = true;
    try {
      for (let after: number | undefined; !closed; ) {
        const startedAt = performance.now();
        after = await store.purge(after, SCAN);
        if (after === undefined) break;
        await restAfter(startedAt, share());
      }
      if (store.prune && !closed && (await store.pruneDue?.())) {
        for (let after: string | undefined; !closed; ) {
          const startedAt = performance.now();
          after = await store.prune(after, batch * PRUNE_SCAN_PER_HOOK);
          if (after === undefined) break;
          await restAfter(startedAt, share());
        }
      }
    } catch (error) {
      log.warn("could not remove deleted hooks from the search index", { error: String(error) });
    } finally {
      purging = false;
    }
  }

  return {
    /** Ids of a search's page, newest first, once what this instance caught is indexed. */
    async search(query: SearchQuery): Promise<string[]> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([flush(), new Promise((resolve) => (timer = setTimeout(resolve, FLUSH_WAIT_MS)))]);
      clearTimeout(timer);
      return store.search(query);
    },
    /** How many hooks match (up to `max + 1`: store.count), once what this instance caught is indexed. */
    async count(query: CountQuery, max: number): Promise<number> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([flush(), new Promise((resolve) => (timer = setTimeout(resolve, FLUSH_WAIT_MS)))]);
      clearTimeout(timer);
      return store.count(query, max);
    },
    /** Indexes hooks stored without being caught (imports), soon. */
    enqueue,
    leftOut,
    /** Other work on the thread that catches (a bulk job's batch): indexing takes BUSY_SHARE meanwhile, as while hooks are caught. */
    busy: (_hooks: number) => void (lastCaughtAt = performance.now()),
    /** Resolves once what waits now is indexed. */
    flush,
    /**
     * Starts the sweeps: of every hook at once, then every SWEEP_MS of the hooks caught since the
     * sweep before last (SWEEP_BACK_MS at most: under a steady flood a sweep reads a minute of
     * hooks, not five); and the purge of deleted hooks' entries, at once and every PURGE_EVERY sweeps.
     */
    start(): void {
      void sweep().then(purge);
      let sweeps = 0;
      let last = deps.clock.now();
      sweeper = setInterval(() => {
        const now = deps.clock.now();
        const from = ulidFloor(Math.max(now - SWEEP_BACK_MS, last - SWEEP_MS));
        last = now;
        void sweep(from).then(() => (++sweeps % PURGE_EVERY === 0 ? purge() : undefined));
      }, SWEEP_MS);
      sweeper.unref?.();
    },
    sweep,
    /** Removes deleted hooks' entries now, and prunes the vocabulary when that is due; resolves once done (tests). */
    purge,
    indexSize: () => store.sizeBytes(),
    async close(): Promise<void> {
      closed = true;
      if (sweeper) clearInterval(sweeper);
      await flush();
    },
  };
}

/** A caught row (headers as JSON text) as the document builder reads it. */
function fromCaught(h: Source | CaughtRow): Source & { headers: RawHook["headers"] } {
  if (typeof h.headers !== "string") return h as Source & { headers: RawHook["headers"] };
  return { id: h.id, channel: h.channel, method: h.method, query: h.query, ip: h.ip, headers: JSON.parse(h.headers), body: h.body, eventType: h.eventType };
}

export type Search = ReturnType<typeof createSearch>;

const EMPTY_DOC = { text: "", fields: "" };

/** The search the hook list reads (hooks/hook-search.ts), over either index (this one or threaded.ts). */
export function hookSearch(search: Pick<Search, "search" | "count">): HookSearch {
  return {
    read(q: string, reader?: string, opts?: { contracts: true }) {
      let parsed = parseSearch(q);
      let contract: QueryNode | undefined;
      if (parsed.node && uses(parsed.node, "contract")) {
        const first = firstContract(parsed.node)!;
        if (!opts?.contracts)
          throw invalid(`invalid query: q: at character ${first.at + 1}: schema:, is:new-type and is:new-field filter the hook list only (GET /v1/hooks)`);
        const split = syntax(() => splitContract(parsed.node!));
        contract = split.contract;
        parsed = needlesOf(split.rest);
      }
      // `is:unread` is the asking reader's: the tree is a copy with them in it.
      const terms = parsed.node && uses(parsed.node, "unread") ? { ...parsed, node: withReader(parsed.node, reader ?? "") } : parsed;
      const find = (page: HookSearchPage) => search.search({ ...page, terms });
      const node = contract;
      return Object.assign(find, {
        count: (filters: Omit<HookSearchPage, "after" | "limit">, max: number) => search.count({ ...filters, terms }, max),
        matchesAll: isEmpty(terms),
        contract: node && {
          asksNone: asksNone(node),
          holds: (check: ContractCheck | undefined) => check !== undefined && evaluate(node, EMPTY_DOC, { id: "", ip: "", size: 0, contract: check }, 0),
        },
      });
    },
  };
}
