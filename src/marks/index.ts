import type { CaughtRow } from "../hooks/changes";
import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import type { MarkStore } from "./store";

export type { MarkKind, MarkStore } from "./store";

/**
 * How long after a channel's last refusal carrying a delivery id its caught hooks are looked up
 * among the refusals: providers retry a delivery for up to three days (Stripe; GitHub's
 * redeliveries are by hand, Svix's retries end within about a day).
 */
export const REFUSAL_LOOKBACK_MS = 3 * 24 * 60 * 60 * 1000;

/** Caught batches waiting to be looked up at most; past that a batch is left unmarked (and counted). */
const MAX_PENDING_BATCHES = 64;

/**
 * Another instance streams its refusal before its write commits: a hook of a channel refused
 * within LATE_MS whose delivery was not found is looked up once more LATE_RETRY_MS later.
 */
const LATE_MS = 5000;
const LATE_RETRY_MS = 1000;

/**
 * `has:refusal` (docs/search.md): a hook is marked `refusal` when the same delivery (the
 * provider's delivery id, dedup/ deliveryIdOf) was refused before it was caught and the refusal is
 * still kept (the newest REFUSALS_KEPT). The catching path pays nothing for it: this is fed with
 * the instance's caught batches after the senders were answered (compose/changes.ts), one batch
 * after another, and looks at a hook only when its channel had a refusal carrying a delivery id
 * within REFUSAL_LOOKBACK_MS (known from the refusals streamed by any instance, and the database at
 * start-up): then its delivery id is worked out and looked up among the channel's refusals (one
 * indexed query per channel of the batch), and the hooks found are marked in one statement.
 *
 * A refusal that comes after its delivery was caught marks nothing: a provider does not retry a
 * delivery it was answered 2xx for, so such a request is a replay or a copy, listed with the
 * refusals (GET /v1/refusals), not a hook that needed another try.
 */
export function createRefusalMarks(deps: {
  store: MarkStore;
  /** The delivery id of a caught hook (dedup/ deliveryIdOf); `headers` by lower-case name. */
  deliveryId: (channel: string, headers: Record<string, string>, body: Uint8Array) => string | undefined;
  /** Writes the refusals still buffered on this instance (hooks/guards/refusals.ts flush), so a retry right after its refusal finds it. */
  flushRefusals: () => Promise<void>;
  clock: Clock;
  log: Pick<Log, "error">;
}) {
  const { store, clock, log } = deps;
  /** The time of each channel's newest refusal carrying (possibly) a delivery id. */
  const recent = new Map<string, number>();
  let queue = Promise.resolve();
  let pending = 0;
  let skipped = 0;
  const idle: (() => void)[] = [];

  async function apply(hooks: readonly CaughtRow[], again = true): Promise<void> {
    await deps.flushRefusals();
    const byChannel = new Map<string, Map<string, string[]>>();
    for (const h of hooks) {
      let headers: Record<string, string>;
      try {
        headers = JSON.parse(h.headers) as Record<string, string>;
      } catch {
        continue;
      }
      const id = deps.deliveryId(h.channel, lowerCased(headers), h.body);
      if (id === undefined) continue;
      let ids = byChannel.get(h.channel);
      if (!ids) byChannel.set(h.channel, (ids = new Map()));
      const list = ids.get(id);
      if (list) list.push(h.id);
      else ids.set(id, [h.id]);
    }
    const marked: string[] = [];
    for (const [channel, ids] of byChannel) for (const id of await store.refusedDeliveries(channel, [...ids.keys()])) marked.push(...ids.get(id)!);
    if (marked.length > 0) await store.mark(marked, "refusal", clock.now());
    if (!again) return;
    const found = new Set(marked);
    const now = clock.now();
    const late = hooks.filter((h) => !found.has(h.id) && now - (recent.get(h.channel) ?? Number.NEGATIVE_INFINITY) < LATE_MS);
    if (late.length > 0) {
      pending++;
      setTimeout(() => enqueue(() => apply(late, false)), LATE_RETRY_MS);
    }
  }

  /** Runs `work` after the batches queued before it; `pending` was counted for it. */
  function enqueue(work: () => Promise<void>): void {
    queue = queue
      .then(work)
      .catch((e) => log.error(`refusal marks: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        if (--pending === 0) for (const f of idle.splice(0)) f();
      });
  }

  return {
    /** Start-up: the channels refused lately, from the database. Rejects with the database's error. */
    async load(): Promise<void> {
      for (const [channel, at] of await store.refusedChannels(clock.now() - REFUSAL_LOOKBACK_MS)) refused(channel, at);
    },
    /** A guard refused a request to `channel` at `at` (on any instance). */
    refused,
    /** Queues the hooks of a caught batch whose channel was refused lately; returns at once. */
    caught(hooks: readonly CaughtRow[]): void {
      if (recent.size === 0) return;
      const since = clock.now() - REFUSAL_LOOKBACK_MS;
      const wanted = hooks.filter((h) => (recent.get(h.channel) ?? -1) >= since);
      if (wanted.length === 0) return;
      if (pending >= MAX_PENDING_BATCHES) {
        skipped += wanted.length;
        return;
      }
      pending++;
      enqueue(() => apply(wanted));
    },
    /** Hooks left unmarked because too many batches were waiting. */
    skipped: () => skipped,
    /** Resolves once every batch queued so far is looked up (tests, shutdown). */
    settled(): Promise<void> {
      return pending === 0 ? Promise.resolve() : new Promise((r) => idle.push(r));
    },
  };

  function refused(channel: string, at: number): void {
    if ((recent.get(channel) ?? -1) < at) recent.set(channel, at);
  }
}

/** Headers as stored (names as the catcher kept them) by lower-case name. */
function lowerCased(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

export type RefusalMarks = ReturnType<typeof createRefusalMarks>;
