import { createHash } from "node:crypto";
import type { RawHook } from "../hooks/store";
import type { AttemptContext, AttemptResult, Outgoing } from "../runner/handlers";

/**
 * `chaos = { ... }` once loaded (durations in milliseconds): what a forward does wrong on purpose,
 * as providers do (at-least-once, no order). Each is optional; `seed` makes it reproducible.
 */
export type ChaosSettings = {
  /** Share of hooks delivered twice, the second time with the same delivery id and signature. */
  duplicate?: number;
  /** How long after the first delivery the duplicate comes (0: at once). */
  duplicate_after?: number;
  /** Hold hooks for this window and deliver them shuffled. */
  reorder?: number;
  /** A delay before each delivery, drawn from this range. */
  delay?: { min: number; max: number };
  /** The first N attempts of each hook are sent, their answer ignored: they count as timed out, so the app sees the retries. */
  drop_first?: number;
  /** Hold hooks until this many wait (or a second passes) and deliver them at once. */
  burst?: number;
  seed?: number;
};

/** What chaos did, in the order it happens; an attempt records those it underwent, joined by commas. */
export const CHAOS_ACTIONS = ["drop_first", "burst", "reorder", "delay", "duplicate"] as const;
export type ChaosAction = (typeof CHAOS_ACTIONS)[number];

/** The longest a burst waits for its N hooks. */
const BURST_WAIT_MS = 1000;
/** Hooks whose seeding key is remembered (across their retries), and contents counted; the oldest are forgotten past this. */
const REMEMBERED = 100_000;

type Sender = (request: Outgoing) => Promise<AttemptResult>;
type Held = { key: string; release: (together: number) => unknown };

/**
 * The chaos of one forward handler. `decide` draws from the seed and what the hook is (method,
 * query, body, and which occurrence of that content it is), never from timing or hook ids: the
 * same seed and the same hooks give the same actions in every run. Reordering and bursts depend
 * on which hooks wait together, which timing decides; the order within a window is drawn from the
 * seed and the window's hooks.
 */
/** What a held attempt answers at the stop: nothing was sent, and it stays queued for the next start. */
const STOPPED: AttemptResult = { ok: false, excerpt: "", error: "", interrupted: true };

export function createChaos(settings: ChaosSettings, wait: (ms: number, stopping?: AbortSignal) => Promise<boolean>) {
  const seed = String(settings.seed ?? 0);
  const keys = new Map<string, string>();
  const seen = new Map<string, number>();
  let window: Held[] | null = null;
  let burst: { held: Held[]; timer: ReturnType<typeof setTimeout> } | null = null;

  /** A number in [0, 1) from the seed, the hook's key and what it is for. */
  function draw(key: string, what: string): number {
    const digest = createHash("sha256").update(`${seed}\0${key}\0${what}`).digest();
    return digest.readUIntBE(0, 6) / 2 ** 48;
  }

  /** The hook's seeding key: its content and which occurrence of that content it is for this handler. */
  function keyOf(hook: RawHook): string {
    const known = keys.get(hook.id);
    if (known) return known;
    const content = createHash("sha256").update(`${hook.method}\0${hook.query}\0`).update(hook.body).digest("hex");
    const n = (seen.get(content) ?? 0) + 1;
    seen.set(content, n);
    if (seen.size > REMEMBERED) seen.delete(seen.keys().next().value!);
    const key = `${content}:${n}`;
    keys.set(hook.id, key);
    if (keys.size > REMEMBERED) keys.delete(keys.keys().next().value!);
    return key;
  }

  /**
   * Waits in the current reorder window (the first to arrive opens it); when it closes, its hooks go
   * one after another in an order drawn from the seed and the window's hooks. Resolves to how many
   * the window held.
   */
  function reorder(key: string, stopping?: AbortSignal): Promise<{ together: number; sent: () => void } | undefined> {
    return new Promise((resolve) => {
      if (!window) {
        window = [];
        setTimeout(() => void releaseWindow(), settings.reorder!);
      }
      // At the stop it leaves at once (its attempt stays queued); the window does not wait for it.
      let left = false;
      const leave = () => ((left = true), resolve(undefined));
      if (stopping?.aborted) return leave();
      stopping?.addEventListener("abort", leave, { once: true });
      window.push({
        key,
        release: (together) => {
          stopping?.removeEventListener("abort", leave);
          return left ? Promise.resolve() : new Promise<void>((sent) => resolve({ together, sent }));
        },
      });
    });
  }

  async function releaseWindow(): Promise<void> {
    const held = window ?? [];
    window = null;
    const salt = held
      .map((h) => h.key)
      .sort()
      .join(",");
    const order = held.map((h) => ({ h, r: draw(h.key, `reorder:${salt}`) })).sort((a, b) => a.r - b.r);
    // The next one is released once this one's request was answered: the app gets them in this order.
    for (const { h } of order) await h.release(held.length);
  }

  /** Waits until `burst` hooks wait (or BURST_WAIT_MS passed) and resolves all at once, to how many went together. */
  function joinBurst(key: string, stopping?: AbortSignal): Promise<number | undefined> {
    return new Promise((resolve) => {
      // At the stop it leaves at once (its attempt stays queued).
      if (stopping?.aborted) return resolve(undefined);
      const leave = () => resolve(undefined);
      stopping?.addEventListener("abort", leave, { once: true });
      const flush = () => {
        const all = burst?.held ?? [];
        if (burst) clearTimeout(burst.timer);
        burst = null;
        for (const h of all) h.release(all.length);
      };
      if (!burst) burst = { held: [], timer: setTimeout(flush, BURST_WAIT_MS) };
      burst.held.push({ key, release: (n) => (stopping?.removeEventListener("abort", leave), resolve(n)) });
      if (burst.held.length >= settings.burst!) flush();
    });
  }

  /**
   * Delivers one attempt through `send` with this handler's chaos; the result says which actions
   * happened (`chaos`). `prepare` builds the request at the moment it is sent (a fresh signature
   * after a delay).
   */
  return async function deliver(hook: RawHook, context: AttemptContext, prepare: () => Outgoing, send: Sender): Promise<AttemptResult> {
    const key = keyOf(hook);
    const actions: ChaosAction[] = [];
    const dropped = settings.drop_first !== undefined && context.attempt <= settings.drop_first;
    if (dropped) actions.push("drop_first");
    if (!dropped && settings.burst !== undefined && settings.burst > 1) {
      const together = await joinBurst(key, context.stopping);
      if (together === undefined) return STOPPED;
      if (together > 1) actions.push("burst");
    }
    let result: AttemptResult;
    if (!dropped && settings.reorder !== undefined && settings.reorder > 0) {
      const turn = await reorder(key, context.stopping);
      if (!turn) return STOPPED;
      if (turn.together > 1) actions.push("reorder");
      // The window's next hook waits for this one's answer, whatever happens to it.
      result = await sendOnce(key, context, prepare, send, actions).finally(turn.sent);
    } else result = await sendOnce(key, context, prepare, send, actions);
    if (result.interrupted) return result;
    if (dropped)
      result = { ...result, ok: false, error: `chaos drop_first: the answer (${result.httpStatus ?? result.error}) was ignored, as if it timed out` };
    return actions.length ? { ...result, chaos: actions.join(",") } : result;
  };

  /** The delay, the request, and its duplicate. */
  async function sendOnce(key: string, context: AttemptContext, prepare: () => Outgoing, send: Sender, actions: ChaosAction[]): Promise<AttemptResult> {
    if (settings.delay && settings.delay.max > 0) {
      const ms = Math.round(settings.delay.min + draw(key, `delay:${context.attempt}`) * (settings.delay.max - settings.delay.min));
      if (ms > 0) {
        if (!(await wait(ms, context.stopping))) return { ok: false, excerpt: "", error: "", interrupted: true };
        actions.push("delay");
      }
    }
    const request = prepare();
    const first = await send(request);
    // The first attempt whose answer counts; a provider's retry of it carries the same delivery id and signature.
    const duplicate = settings.duplicate !== undefined && context.attempt === (settings.drop_first ?? 0) + 1 && draw(key, "duplicate") < settings.duplicate;
    if (duplicate && first.ok) {
      if (settings.duplicate_after && !(await wait(settings.duplicate_after, context.stopping))) return first;
      await send(request);
      actions.push("duplicate");
    }
    return first;
  }
}
