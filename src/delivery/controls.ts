import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import { toRfc3339 } from "../lib/clock";
import { notFound } from "../lib/errors";
import type { AttemptGate, Runner } from "../runner";
import type { Handler } from "../runner/handlers";
import { type BreakerState, createBreakers } from "./breaker";
import { createPauses, type PausedSetting } from "./pause";
import { createPacer } from "./rate";

/** A handler's state, first that applies: paused by a user, its breaker open, half-open, else active. */
export type HandlerState = "active" | "paused" | "breaker_open" | "breaker_half_open";

/** One handler as GET /v1/handlers shows it. */
export type HandlerView = {
  name: string;
  kind: string;
  channels: string[];
  state: HandlerState;
  /** `rate` as "10/s", or null when not paced. */
  rate: string | null;
  breaker: { state: BreakerState; failures: number; threshold: number; cool_down: string; reopens_at: string | null } | null;
  /** Its attempts waiting (queued or running), on every instance. */
  waiting: number;
};

export type ControlDeps = {
  runner: Pick<Runner, "handlerList" | "channelNames" | "backlog" | "notify">;
  /** Where the paused handlers are kept (a setting of the database). */
  paused: PausedSetting;
  clock: Clock;
  log: Log;
  /** Told of each breaker transition (the metrics, the stream), with the failures in a row and an open one's cool-down end. */
  onBreaker?: (handler: string, state: BreakerState, detail: { failures: number; until?: number }) => void;
};

const UNITS: [number, string][] = [
  [86_400_000, "d"],
  [3_600_000, "h"],
  [60_000, "m"],
  [1000, "s"],
];
/** "10/s", "600/m", "5/10s", "3/1500ms": a rate as the config writes it. */
export function formatRate({ count, per }: { count: number; per: number }): string {
  for (const [ms, unit] of UNITS) if (per % ms === 0) return `${count}/${per === ms ? "" : per / ms}${unit}`;
  return `${count}/${per}ms`;
}

/**
 * Delivery controls: a user's pause, each handler's rate and circuit breaker, handed to the runner
 * as its AttemptGate (what may start when), and what the API, the CLI and the dashboard see and do.
 */
export function createControls(deps: ControlDeps) {
  const { runner, clock, log } = deps;
  const pauses = createPauses(deps.paused);
  const pacer = createPacer();
  const breakers = createBreakers((name, state, { failures, until }) => {
    if (state === "open")
      log.warn(`${name}: ${failures} attempts failed in a row; the circuit breaker opened, its attempts wait until ${dateOrNull(until!) ?? "further notice"}`);
    else if (state === "half_open") log.info(`${name}: the circuit breaker is half-open, one attempt goes through`);
    else log.info(`${name}: the circuit breaker closed, attempts run again`);
    deps.onBreaker?.(name, state, { failures, ...(until !== undefined ? { until } : {}) });
  });

  /** Until the paused handlers are read (start-up), nothing starts: a restart never runs a paused handler. */
  let loaded = false;
  const firstLoad = Promise.withResolvers<void>();
  const gate: AttemptGate = {
    ready: () => firstLoad.promise,
    allow(handler, now, free) {
      if (!loaded || pauses.has(handler.name)) return 0;
      const { rate, breaker } = handler.policy;
      let n = breaker ? breakers.allow(handler.name, now, free) : free;
      if (rate && n > 0) n = pacer.allow(handler.name, now, n);
      return n;
    },
    started(handler, now, count) {
      const { rate, breaker } = handler.policy;
      if (breaker) breakers.started(handler.name, now);
      if (rate) pacer.started(handler.name, rate, now, count);
    },
    nextStart(handler, now) {
      if (!loaded || pauses.has(handler.name)) return Infinity;
      const { rate, breaker } = handler.policy;
      return Math.max(breaker ? breakers.nextStart(handler.name, now) : now, rate ? pacer.nextStart(handler.name, now) : now);
    },
    finished(handler, ok, now) {
      const { breaker } = handler.policy;
      if (!breaker || !breakers.finished(handler.name, breaker, ok, now)) return undefined;
      return `${breaker.failures} attempts failed in a row: the circuit breaker opened, attempts of ${handler.name} wait ${breaker.coolDown} ms`;
    },
  };

  const stateOf = (h: Handler, now: number): HandlerState => {
    if (pauses.has(h.name)) return "paused";
    if (!h.policy.breaker) return "active";
    const s = breakers.view(h.name, now).state;
    return s === "open" ? "breaker_open" : s === "half_open" ? "breaker_half_open" : "active";
  };

  async function view(h: Handler, channels: string[]): Promise<HandlerView> {
    const now = clock.now();
    const { rate, breaker } = h.policy;
    const b = breaker ? breakers.view(h.name, now) : undefined;
    return {
      name: h.name,
      kind: h.kind,
      channels,
      state: stateOf(h, now),
      rate: rate ? formatRate(rate) : null,
      breaker:
        breaker && b
          ? {
              state: b.state,
              failures: b.failures,
              threshold: breaker.failures,
              cool_down: `${breaker.coolDown}ms`,
              reopens_at: b.until === null ? null : dateOrNull(b.until),
            }
          : null,
      waiting: (await runner.backlog(h.name)).count,
    };
  }

  /** The handler named, with its channels; throws not_found for a name no handler has. */
  async function find(name: string) {
    const found = runner.handlerList(await runner.channelNames()).find((e) => e.handler.name === name);
    if (!found) throw notFound(`handler "${name}" not found`);
    return found;
  }

  return {
    gate,
    /** Reads the paused handlers (start-up, and when another instance changed them); on a reload wakes the runner for those resumed. */
    async load(): Promise<void> {
      await pauses.load();
      // A reload (another instance paused or resumed): what was held may run now. The first read
      // needs no wake-up: the runner waits for it (gate.ready) before its first turn.
      if (loaded) runner.notify();
      loaded = true;
      firstLoad.resolve();
    },
    async list(): Promise<HandlerView[]> {
      const all = runner.handlerList(await runner.channelNames()).sort((a, b) => a.handler.name.localeCompare(b.handler.name));
      return Promise.all(all.map((e) => view(e.handler, e.channels)));
    },
    get: async (name: string): Promise<HandlerView> => {
      const e = await find(name);
      return view(e.handler, e.channels);
    },
    /** Pauses the handler (kept across restarts); its attempts wait. Throws not_found. */
    async pause(name: string): Promise<HandlerView> {
      const e = await find(name);
      if (await pauses.pause(name)) log.info(`${name}: paused; its attempts wait until it is resumed`);
      return view(e.handler, e.channels);
    },
    /** Resumes the handler: what waited runs (at its rate). Throws not_found. */
    async resume(name: string): Promise<HandlerView> {
      const e = await find(name);
      if (await pauses.resume(name)) log.info(`${name}: resumed`);
      runner.notify();
      return view(e.handler, e.channels);
    },
    /** Each handler's state now (the metrics' gauge). */
    states(): [string, HandlerState][] {
      const now = clock.now();
      return runner.handlerList().map((e) => [e.handler.name, stateOf(e.handler, now)]);
    },
  };
}

export type Controls = ReturnType<typeof createControls>;

/** RFC 3339 for `ms`, or null past the dates a Date holds (a cool-down of millions of days): never a RangeError. */
function dateOrNull(ms: number): string | null {
  return Number.isFinite(new Date(ms).getTime()) ? toRfc3339(ms) : null;
}
