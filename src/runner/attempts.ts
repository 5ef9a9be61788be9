import type { RawHook } from "../hooks/store";
import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import type { Activity } from "../lib/terminal";
import type { AttemptGate } from "./gate";
import type { AttemptResult, Handler } from "./handlers";
import { errorMessage } from "./handlers/types";
import { type AttemptQueue, type AttemptRow, holdsHook, type Outcome, RELAY_PREFIX, settledHook } from "./queue";
import { createSettler } from "./settle";
import type { HookOutcomes, HookReader } from "../hooks/runner";

/** Relays' handler names are never given up for being unknown here (another instance may know the key). */
export { RELAY_PREFIX } from "./queue";

/** How many attempts of handlers no longer configured are given up per turn. */
const ORPHAN_BATCH = 100;
export { SETTLE_BATCH } from "./settle";

export type AttemptsDeps = {
  queue: AttemptQueue;
  handlers: Map<string, Handler>;
  clock: Clock;
  log: Log;
  random: () => number;
  activity?: Activity;
  /** An attempt finished: a slot is free and a follow-up may be due. */
  onSettled: () => void;
  /** Aborted when the runner stops (handed to each attempt). */
  stopping: () => AbortSignal;
  /** An attempt's outcome was recorded (succeeded, failed or gave_up). */
  onFinished?: (handler: string, outcome: Outcome) => void;
};

/**
 * Runs queued attempts and records what they did (settle.ts): an attempt's result, the attempt
 * queued after it and the hook's new status commit in one transaction, so a crash never leaves
 * them apart.
 */
export function createAttempts(deps: AttemptsDeps) {
  const { queue, handlers, clock, log } = deps;
  const active = new Map<string, number>();
  const inflight = new Set<Promise<void>>();
  let outcomes: HookOutcomes | null = null;
  let reader: HookReader | null = null;
  /** Pause, rate and breaker (delivery/), once the composition hands them in. */
  let gate: AttemptGate | null = null;
  const settle = createSettler({ ...deps, outcomes: () => outcomes!, reader: () => reader! });

  /** Runs one claimed attempt; `read` is the hook read with the others claimed together (undefined: gone, or read alone). */
  async function execute(row: AttemptRow, handler: Handler, read?: Promise<Map<string, RawHook>>, skip = false): Promise<void> {
    const hook = read ? (await read).get(row.hookId) : await reader!.raw(row.hookId);
    if (!hook) return;
    let result: AttemptResult;
    const startedAt = clock.now();
    try {
      result = skip
        ? { ok: true, skipped: true, excerpt: "", error: "" }
        : await handler.run(hook, { attempt: row.attempt, now: clock.now(), stopping: deps.stopping() });
    } catch (error) {
      result = { ok: false, excerpt: "", error: errorMessage(error) };
    }
    if (result.interrupted) {
      log.info("attempt interrupted by the stop; it runs again at the next start", { handler: row.handler, hook: row.hookId });
      return;
    }
    if (result.released) {
      await queue.release(row.id);
      return;
    }
    // A skipped attempt never went through the gate: it neither closes nor opens the breaker.
    const note = result.skipped ? undefined : gate?.finished(handler, result.ok, clock.now());
    if (note) result = { ...result, error: `${result.error}; ${note}` };
    await settle(row, handler.policy, result, startedAt, hook);
  }

  function track(name: string, work: Promise<void>): void {
    active.set(name, (active.get(name) ?? 0) + 1);
    const done: Promise<void> = work
      .catch((error) => log.error("attempt failed to settle", { handler: name, error: String((error as Error)?.stack ?? error) }))
      .finally(() => {
        active.set(name, active.get(name)! - 1);
        inflight.delete(done);
        deps.onSettled();
      });
    inflight.add(done);
  }

  /**
   * Starts every due attempt a free slot allows; resolves once they are claimed, not run, to how
   * many were started.
   */
  async function launchDue(now: number): Promise<number> {
    if (!reader) return 0;
    let started = 0;
    for (const [name, handler] of handlers) {
      const free = handler.policy.concurrency - (active.get(name) ?? 0);
      if (free <= 0 || handler.ready?.() === false) continue;
      const allowed = gate ? gate.allow(handler, now, free) : free;
      // `when` is decided before the gate: a skipped attempt takes no rate slot and never waits
      // behind an open breaker or a pause, so a handler with `when` claims up to its free slots.
      if (allowed <= 0 && !handler.when) continue;
      const rows = await queue.claimDue(name, now, handler.when ? free : allowed, handler.policy.concurrency);
      // The hooks of the attempts claimed together are read in one statement.
      const read =
        rows.length > 1 && reader.rawMany ? reader.rawMany(rows.map((r) => r.hookId)).then((hooks) => new Map(hooks.map((h) => [h.id, h]))) : undefined;
      const go: AttemptRow[] = [];
      for (const row of rows) {
        if (handler.when) {
          const hook = read ? (await read).get(row.hookId) : await reader.raw(row.hookId);
          if (hook && !(await handler.when.matches(hook))) {
            track(name, execute(row, handler, read, true)), started++;
            continue;
          }
        }
        // A wanted attempt beyond what the gate allows goes back to the queue as it was.
        if (go.length < allowed) go.push(row);
        else await queue.release(row.id);
      }
      if (go.length > 0) gate?.started(handler, now, go.length);
      for (const row of go) track(name, execute(row, handler, read)), started++;
    }
    // A handler removed from the config since: give up so its hooks do not stay pending for ever.
    for (const [name, dueAt] of await queue.nextDue()) {
      // A relay's attempts wait for its key (another instance may know a key this one has not read yet).
      if (handlers.has(name) || dueAt > now || name.startsWith(RELAY_PREFIX)) continue;
      const rows = await queue.claimDue(name, now, ORPHAN_BATCH, Infinity);
      await Promise.all(rows.map((row) => settle(row, undefined, { ok: false, excerpt: "", error: `handler "${name}" is not configured` })));
    }
    return started;
  }

  /**
   * In transaction: a new round for each handler whose last attempt (`latest`) failed, gave up or
   * was cancelled, and for handlers of the channel that never ran on this hook. When every handler
   * already succeeded, the hook is handled at once rather than left pending with nothing queued.
   */
  async function retryAfter(hookId: string, channelHandlers: readonly string[], latest: readonly AttemptRow[]): Promise<void> {
    const now = clock.now();
    let queued = 0;
    for (const a of latest) {
      // A relay no longer relaying the channel (its key revoked) is not run again.
      if (a.handler.startsWith(RELAY_PREFIX) && !channelHandlers.includes(a.handler)) continue;
      if (a.outcome === "failed" || a.outcome === "gave_up" || a.outcome === "cancelled") {
        await queue.queueRound(hookId, a.handler, a.attempt, now);
        queued++;
      }
    }
    const tried = new Set(latest.map((a) => a.handler));
    for (const name of channelHandlers) {
      if (!tried.has(name)) await queue.queueRound(hookId, name, 0, now), queued++;
    }
    if (queued === 0 && latest.some(settledHook) && !latest.some(holdsHook)) await outcomes?.handled(hookId);
  }

  return {
    bind(o: HookOutcomes, r: HookReader): void {
      outcomes = o;
      reader = r;
    },
    launchDue,
    control(g: AttemptGate): void {
      gate = g;
    },
    /** Resolves once the gate (if any) is ready. */
    gateReady: (): Promise<void> => gate?.ready() ?? Promise.resolve(),

    /** Runs everything due at clock.now(), including follow-ups that become due meanwhile, and waits. */
    async runAllDue(): Promise<void> {
      while (true) {
        await launchDue(clock.now());
        if (inflight.size === 0) return;
        await Promise.race(inflight);
      }
    },

    /** The earliest time a queued attempt of a handler with a free slot is due (Infinity if none). */
    async nextDue(): Promise<number> {
      if (!reader) return Infinity; // not bound yet: nothing can run, do not spin
      let next = Infinity;
      for (const [name, dueAt] of await queue.nextDue()) {
        const handler = handlers.get(name);
        if (handler && ((active.get(name) ?? 0) >= handler.policy.concurrency || handler.ready?.() === false)) continue;
        if (!handler && name.startsWith(RELAY_PREFIX)) continue;
        // Paused, its breaker open, or its rate's next start later: then, at the earliest.
        next = Math.min(next, handler && gate ? Math.max(dueAt, gate.nextStart(handler, clock.now())) : dueAt);
      }
      return next;
    },

    /** In transaction: retryAfter the hook's latest attempts. */
    async queueRetry(hookId: string, channelHandlers: readonly string[]): Promise<void> {
      await retryAfter(hookId, channelHandlers, await queue.latest(hookId));
    },

    /** In transaction: queueRetry of each of these hooks, the latest attempts of all read in one statement (a bulk retry's batch). */
    async queueRetries(hooks: readonly { id: string; channelHandlers: readonly string[] }[]): Promise<void> {
      if (hooks.length === 0) return;
      const latest = new Map<string, AttemptRow[]>();
      for (const a of await queue.latestOf(hooks.map((h) => h.id))) latest.set(a.hookId, [...(latest.get(a.hookId) ?? []), a]);
      for (const h of hooks) await retryAfter(h.id, h.channelHandlers, latest.get(h.id) ?? []);
    },

    /**
     * In transaction: of these hooks, whose deliveries of a relay just ended, those whose every
     * other handler succeeded (one at least) are handled; a hook with no other handler stays
     * pending, as hooks of a channel without handlers do.
     */
    async settleEnded(hookIds: readonly string[]): Promise<void> {
      const latest = new Map<string, AttemptRow[]>();
      for (const a of await queue.latestOf(hookIds)) latest.set(a.hookId, [...(latest.get(a.hookId) ?? []), a]);
      for (const [id, rows] of latest) if (rows.some(settledHook) && !rows.some(holdsHook)) await outcomes?.handled(id);
    },

    async settle(): Promise<void> {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
  };
}

export type Attempts = ReturnType<typeof createAttempts>;
