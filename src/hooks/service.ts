import type { Clock } from "../lib/clock";
import { AppError, notFound, precondition } from "../lib/errors";
import type { HookOutcomes, HookRunner } from "./runner";
import { hookSummaryJson, toWireHook, type HookExtendedWire } from "./model";
import { decodePayload } from "./payload";
import { bodyPreview } from "./preview";
import { TRANSITION_FROM } from "./status";
import type { HookKey, HookStatus, HookStore, ListQuery, RawHook } from "./store";

/**
 * Hook operations and their state machine. Every change happens in one transaction with its
 * event and its stats update; an operation refused from the hook's status throws
 * failed_precondition and changes nothing.
 *
 *   discard: pending | failed     -> discarded (finalized_at set, queued attempts cancelled)
 *   retry:   failed | discarded   -> pending   (finalized_at cleared, failed handlers queued again)
 *   redeliver: any               -> pending   (extension: every handler of the channel runs again;
 *                                              event `retried` with message "redelivered")
 *   process: pending              -> handled   (channels without handlers only)
 *   fail:    pending              -> failed    (channels without handlers only)
 */
export type BulkAction = "retry" | "discard";
/** The statuses each bulk action applies to (as its single operation). */
export const BULK_FROM: Record<BulkAction, readonly HookStatus[]> = { retry: TRANSITION_FROM.retry, discard: TRANSITION_FROM.discard };

/** What a hook's `contract` extension is read from (contracts/, composed in compose/webhooks.ts). */
export type ContractReader = {
  of(hooks: readonly { id: string; channel: string; eventType: string; headers: Record<string, string> }[]): Promise<Map<string, HookContractWire>>;
  /** The kept results only (no implied `none`), by id. */
  kept(ids: readonly string[]): Promise<Map<string, HookContractWire>>;
};
export type HookContractWire = NonNullable<HookExtendedWire["contract"]>;

/** What a hook's `tags` extension is read from (tags/, composed in compose/webhooks.ts). */
export type TagReader = { tagsOf(ids: readonly string[]): Promise<Map<string, string[]>> };

export function createHookService(deps: {
  store: HookStore;
  clock: Clock;
  runner: HookRunner;
  contracts?: ContractReader;
  tags?: TagReader;
  /** Resolves once what caughtTransaction committed is on disk (Storage.durable); absent when a commit is durable when it resolves. */
  durable?: () => Promise<void>;
}) {
  const { store, clock, runner } = deps;

  async function load(id: string): Promise<RawHook> {
    const hook = await store.getHook(id);
    if (!hook) throw notFound(`hook "${id}" not found`);
    return hook;
  }

  /** Hooks as the API shows them; their extensions read (contract results, tags) unless `contract` is false (not asked for). */
  async function wire(hooks: RawHook[], { contract: withContract = true } = {}): Promise<HookExtendedWire[]> {
    const ids = hooks.map((h) => h.id);
    const [events, contracts, tags] = await Promise.all([
      store.eventsOf(ids),
      withContract ? deps.contracts?.of(hooks) : undefined,
      withContract ? deps.tags?.tagsOf(ids) : undefined,
    ]);
    return Promise.all(
      hooks.map(async (h) => {
        const wire = toWireHook(h, events.get(h.id) ?? [], await decodePayload(h.headers, h.body));
        const contract = contracts?.get(h.id);
        const tagged = tags?.get(h.id);
        return { ...wire, ...(tagged ? { tags: tagged } : {}), ...(contract ? { contract } : {}) };
      }),
    );
  }

  async function get(id: string, { contract = true } = {}): Promise<HookExtendedWire> {
    return (await wire([await load(id)], { contract }))[0]!;
  }

  /** Applies one transition in a transaction; throws not_found or failed_precondition. */
  function transition(
    id: string,
    name: string,
    from: readonly HookStatus[],
    to: HookStatus,
    event: { kind: string; actor: string; message?: string },
    also?: (hook: RawHook) => Promise<void>,
  ): Promise<void> {
    return store.transaction(async () => {
      const hook = await load(id);
      if (!from.includes(hook.status)) {
        throw precondition(`cannot ${name} a ${hook.status} hook; ${name} needs ${from.join(" or ")}`);
      }
      const now = clock.now();
      const finalized = to === "handled" || to === "discarded" ? now : null;
      if (!(await store.setStatus(hook, to, finalized))) throw raced(name, hook);
      await store.addEvent({ hookId: id, kind: event.kind, actor: event.actor, message: event.message ?? "", createdAt: now });
      await also?.(hook);
    });
  }

  async function requireNoHandlers(id: string, name: string): Promise<void> {
    const hook = await load(id);
    if (runner.hasHandlers(hook.channel)) {
      throw precondition(`cannot ${name} a hook of channel "${hook.channel}": its handlers decide its status`);
    }
  }

  const outcomes: HookOutcomes = {
    handled(id, known, message = "") {
      return store.transaction(async () => {
        // A hook known as pending need not be read again (the change is compare-and-set on it); any other status may be stale.
        const hook = known?.status === "pending" ? known : await store.getHook(id);
        if (hook?.status !== "pending") return;
        const now = clock.now();
        if (!(await store.setStatus(hook, "handled", now))) return;
        await store.addEvent({ hookId: id, kind: "handled", actor: "", message, createdAt: now });
      });
    },
    failed(id, handler, message) {
      return store.transaction(async () => {
        const hook = await store.getHook(id);
        if (hook?.status !== "pending") return;
        if (!(await store.setStatus(hook, "failed", null))) return;
        await store.addEvent({ hookId: id, kind: "failed", actor: handler, message, createdAt: clock.now() });
      });
    },
  };

  /** Transitions of BULK_ACTIONS: from which statuses, to which, the event, and what the runner does. */
  const bulkMoves = {
    retry: { from: BULK_FROM.retry, to: "pending", kind: "retried", also: (hs: HookKey[]) => runner.queueRetries(hs) },
    discard: {
      from: BULK_FROM.discard,
      to: "discarded",
      kind: "discarded",
      also: async (hs: HookKey[]) => {
        for (const h of hs) await runner.cancel(h.id);
      },
    },
  } as const;

  return {
    outcomes,
    get,
    /**
     * Applies `action` to each of these hooks still in a status it allows, in one transaction, as
     * the single operation would (event, stats, runner); the others are skipped. A few statements
     * per batch whatever its size (HookStore.moveMany, HookRunner.queueRetries). `within` runs in
     * the same transaction once the hooks moved, given how many (a bulk job's progress: committed
     * with them, in one commit); `committed` once it committed, before the wait for the disk (a
     * job's pace counts its own CPU time up to there, not what the thread does meanwhile). Returns
     * the hooks changed, with their channels.
     */
    async bulk(
      action: BulkAction,
      ids: readonly string[],
      actor: string,
      within?: (moved: number) => Promise<unknown>,
      committed?: () => void,
    ): Promise<{ id: string; channel: string }[]> {
      const move = bulkMoves[action];
      // With `durable` (SQLite "full"), committed as caught batches are: the WAL synced off the
      // thread that serves HTTP, where a synced COMMIT held catching up for the disk, and on disk
      // before this resolves. Without, a commit is durable when it resolves (PostgreSQL, whose
      // caughtTransaction only writes, answering no read).
      const commit: HookStore["transaction"] = (fn) => (deps.durable ? store.caughtTransaction(fn) : store.transaction(fn));
      const changed = await commit(async () => {
        const now = clock.now();
        const moved = await store.moveMany(ids, {
          from: move.from,
          to: move.to,
          finalizedAt: move.to === "discarded" ? now : null,
          event: { kind: move.kind, actor, message: "", createdAt: now },
        });
        await move.also(moved);
        await within?.(moved.length);
        return moved.map((h) => ({ id: h.id, channel: h.channel }));
      });
      committed?.();
      if (changed.length > 0) await deps.durable?.();
      if (action === "retry" && changed.length > 0) runner.notify();
      return changed;
    },
    raw: (id: string) => store.getHook(id),
    rawMany: (ids: readonly string[]) => store.getHooks(ids),
    /** The ids of a page of hooks, newest first; find() reads each when its turn comes. */
    listIds: (query: ListQuery): Promise<string[]> => store.listHookIds(query),
    /** A hook as the API shows it, or undefined when it is gone (deleted since its page was listed). */
    /** The contract checks of these hooks (contracts/), by id, with `implied` the `none` of hooks no schema applies to too; empty when checks are not composed. */
    async contractsOf(ids: readonly string[], { implied = false } = {}): Promise<Map<string, HookContractWire>> {
      if (!deps.contracts) return new Map();
      if (!implied) return deps.contracts.kept(ids);
      // Whether a schema applies needs each hook's headers: read without bodies (a hook deleted meanwhile has none).
      const rows = (await Promise.all(ids.map((id) => store.getHookSummary(id)))).filter((r) => r !== undefined);
      return deps.contracts.of(rows);
    },
    async find(id: string, { contract = true } = {}): Promise<HookExtendedWire | undefined> {
      const hook = await store.getHook(id);
      return hook ? (await wire([hook], { contract }))[0] : undefined;
    },
    /** A hook's summary as JSON (`fields=summary`: no body, payload, headers or events; `size`), read without its body. */
    async findSummary(id: string, { contract = false } = {}): Promise<string | undefined> {
      const row = await store.getHookSummary(id);
      if (!row) return undefined;
      const json = hookSummaryJson({ ...row, contentType: row.headers["content-type"] ?? null, preview: bodyPreview(row.head) });
      // `include=extensions`: its tags and its contract check, when it has them (contracts/wire.ts), added at the end.
      const [checks, tags] = contract ? await Promise.all([deps.contracts?.of([row]), deps.tags?.tagsOf([id])]) : [];
      const check = checks?.get(id);
      const tagged = tags?.get(id);
      const more = `${tagged ? `,"tags":${JSON.stringify(tagged)}` : ""}${check ? `,"contract":${JSON.stringify(check)}` : ""}`;
      return more ? `${json.slice(0, -1)}${more}}` : json;
    },
    delete(id: string): Promise<void> {
      return store.transaction(async () => {
        const hook = await load(id);
        await runner.cancel(id);
        if (!(await store.deleteHook(hook))) throw notFound(`hook "${id}" not found`);
      });
    },
    async discard(id: string, actor: string): Promise<HookExtendedWire> {
      await transition(id, "discard", TRANSITION_FROM.discard, "discarded", { kind: "discarded", actor }, () => runner.cancel(id));
      return get(id);
    },
    async retry(id: string, actor: string): Promise<HookExtendedWire> {
      await transition(id, "retry", TRANSITION_FROM.retry, "pending", { kind: "retried", actor }, (h) => runner.queueRetry(id, h.channel));
      // Read before the runner is woken: the answer is the hook as retried, not as a fast delivery left it.
      const retried = await get(id);
      runner.notify();
      return retried;
    },
    /** Throws not_found, or failed_precondition when the channel has no handlers to deliver to. */
    async redeliver(id: string, actor: string): Promise<HookExtendedWire> {
      // Any status may be redelivered: when a delivery settles the hook between this read and the
      // write (on PostgreSQL, another connection can), read it again rather than answer 409.
      for (let left = REDELIVER_TRIES; ; left--) {
        try {
          await store.transaction(async () => {
            const hook = await load(id);
            if (!runner.hasHandlers(hook.channel)) {
              throw precondition(`cannot redeliver a hook of channel "${hook.channel}": it has no handlers`);
            }
            const now = clock.now();
            await runner.cancel(id);
            await runner.queueRedelivery(id, hook.channel);
            // Thrown, so the transaction's cancel and queue are rolled back too.
            if (!(await store.setStatus(hook, "pending", null))) throw raced("redeliver", hook);
            await store.addEvent({ hookId: id, kind: "retried", actor, message: REDELIVERED, createdAt: now });
          });
          break;
        } catch (error) {
          if (left <= 1 || !(error instanceof Raced)) throw error;
        }
      }
      // Read before the runner is woken, as retry does.
      const redelivered = await get(id);
      runner.notify();
      return redelivered;
    },
    async process(id: string, actor: string): Promise<HookExtendedWire> {
      await requireNoHandlers(id, "process");
      await transition(id, "process", TRANSITION_FROM.process, "handled", { kind: "handled", actor });
      return get(id);
    },
    async fail(id: string, actor: string, message: string): Promise<HookExtendedWire> {
      await requireNoHandlers(id, "fail");
      await transition(id, "fail", TRANSITION_FROM.fail, "failed", { kind: "failed", actor, message });
      return get(id);
    },
  };
}

/**
 * A transition that lost a race: another request changed the hook between this one's read and its
 * write (PostgreSQL instances do not take turns as SQLite's one connection does). 409, as a
 * transition from the wrong status.
 */
function raced(name: string, hook: RawHook): AppError {
  return new Raced("failed_precondition", `cannot ${name} hook "${hook.id}": another request changed it meanwhile (it was ${hook.status}); read it again`);
}

/** raced()'s error, told apart from other failed preconditions. */
class Raced extends AppError {}

/** Times RedeliverHook reads a hook again when its status changed meanwhile, before answering 409. */
const REDELIVER_TRIES = 5;

/** The message of the `retried` event RedeliverHook records (the spec's event kinds are kept). */
export const REDELIVERED = "redelivered to every handler of the channel";

export type HookService = ReturnType<typeof createHookService>;
