import type { Config } from "../config/schema";
import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import type { Activity } from "../lib/terminal";
import { createAttempts } from "./attempts";
import { createHandlers, type DeliveryPort, type Handler } from "./handlers";
import type { ForwardConfig } from "../config/handlers";
import { type AttemptQueue, type AttemptRow, type Outcome, RELAY_PREFIX } from "./queue";
import type { HookOutcomes, HookReader, HookRunner } from "../hooks/runner";
import type { Worker } from "../lib/worker";
import { createWorkerSet } from "./workers";
import type { AttemptGate } from "./gate";

export type { AttemptRow, Outcome } from "./queue";
export type { AttemptGate } from "./gate";

export interface Runner extends HookRunner {
  /** Connects the runner to the hook service; called once before start() or tick(). */
  bind(outcomes: HookOutcomes, reader: HookReader): void;
  addWorker(worker: Worker): void;
  /** Runs everything due at clock.now() (attempts, and each worker once) and waits for it; tests call this with a fake clock. */
  tick(): Promise<void>;
  /** Starts the background loop (main.ts only). */
  start(): void;
  /**
   * Stops the loop and waits for running work to settle. Command programs still running are
   * killed with their process group; their attempts stay `running` and run again at the next start.
   */
  stop(): Promise<void>;
  /** Every attempt of the hook, oldest first (the attempts endpoint). */
  attempts(hookId: string): Promise<AttemptRow[]>;
  /** How many attempts are queued (the metrics' queue depth). */
  queueDepth(): Promise<number>;
  /**
   * Adds a forward handler to a channel beside its configured ones (the dashboard), for hooks
   * caught from now on and retries; only forward handlers, never a command or a module.
   */
  addForward(channel: string, config: ForwardConfig): void;
  /** Takes a forward handler added by addForward off its channel. */
  removeForward(channel: string, name: string): void;
  /**
   * Adds a handler built elsewhere (a relay) to a channel: hooks caught from now on, retries, and
   * the channel's pending hooks that never had an attempt of it (as a restart gives them).
   */
  attach(channel: string, handler: Handler): Promise<void>;
  /**
   * What forwards do to their requests on the way out (delivery/: re-signing, chaos); the
   * composition hands it in once, before the first attempt. Without it a forward sends the hook as caught.
   */
  useDelivery(port: DeliveryPort): void;
  /** Takes a handler added by attach off its channel. */
  detach(channel: string, name: string): void;
  /**
   * Ends every attempt of the handler still waiting (queued or running), as `cancelled` with
   * `reason`, and settles their hooks by their other handlers (handled when each of those
   * succeeded); resolves to how many attempts ended. A relay whose key was revoked.
   */
  endDeliveries(name: string, reason: string): Promise<number>;
  /** The handler's attempts running under other instances' claims are queued again (AttemptQueue.takeOver). */
  takeOver(name: string): Promise<number>;
  /** How many attempts of the handler wait (queued or running), and the due time of the oldest. */
  backlog(handler: string): Promise<{ count: number; oldest: number | null }>;
  /** Hands in what else decides when attempts start (delivery/: pause, rate, breaker); once, before start() or tick(). */
  control(gate: AttemptGate): void;
  /**
   * The handlers of the config and of the dashboard (no relay), each with the channels that use it:
   * those of the config, and for `[hooks] default_handlers` the other channels in `existing` (every
   * channel stored, read by the caller), else those this runner has seen hooks of.
   */
  handlerList(existing?: readonly string[]): { handler: Handler; channels: string[] }[];
  /** Every channel stored (for handlerList). */
  channelNames(): Promise<string[]>;
}

export type RunnerDeps = {
  config: Config;
  /** The durable queue of handler attempts (storage.attempts). */
  queue: AttemptQueue;
  clock: Clock;
  log: Log;
  /** Directory relative handler paths (module path, command cwd) are resolved against: the config file's. Default: cwd. */
  baseDir?: string;
  /** Random source of the backoff jitter, in [0, 1); tests pin it. */
  random?: () => number;
  /** Longest wait between two calls of a worker (default WORKER_POLL_MS). */
  workerPollMs?: number;
  /** Told of every finished attempt (the metrics). */
  metrics?: { attempt(handler: string, outcome: Outcome): void };
  /** The live terminal's line per attempt (none by default). */
  activity?: Activity;
  /**
   * Handlers that run only on hooks caught while they are configured (`serve --forward-to`, like
   * `stripe listen`): at start they get no first attempt on older pending hooks, which the
   * handlers of the config file get.
   */
  fromNowOn?: readonly string[];
};

/** The loop sleeps at most this long, so a clock jump or a missed wake-up costs little. */
const MAX_SLEEP_MS = 60_000;
/** Attempts ended per transaction by endDeliveries. */
const END_BATCH = 500;
/** How soon the loop looks again at due attempts it could not claim (their handler is busy elsewhere). */
const BUSY_RETRY_MS = 100;

/**
 * The in-process runner: handler attempts queued in SQLite, run asynchronously beside HTTP
 * under each handler's concurrency limit, plus the durable workers of other modules.
 */
export function createRunner(deps: RunnerDeps): Runner {
  const { config, clock, log } = deps;
  const { queue } = deps;
  const outbound = { allowLinkLocal: config.server.allow_link_local };
  let delivery: DeliveryPort | undefined;
  const handlers = createHandlers(config.handlers, deps.baseDir ?? process.cwd(), outbound, () => delivery);
  const channelHandlers = new Map(config.channels.map((c) => [c.name, c.handlers]));
  /** Channels not in the config (created by their first hook) get [hooks] default_handlers. */
  const defaultHandlers = config.hooks.default_handlers;
  /** Forward handlers added in the dashboard, by channel. */
  const forwards = new Map<string, string[]>();
  /**
   * Channels the config does not declare that had hooks while defaults exist (found at start, or
   * caught since): handlerList names them beside the default handlers.
   */
  const undeclared = new Set<string>();
  const handlersOf = (channel: string): readonly string[] => {
    let configured = channelHandlers.get(channel);
    if (configured === undefined) {
      configured = defaultHandlers;
      if (configured.length > 0 && !undeclared.has(channel)) undeclared.add(channel);
    }
    const added = forwards.get(channel);
    return added ? [...configured, ...added] : configured;
  };
  const workers = createWorkerSet(log, () => wake(), deps.workerPollMs);
  // Aborted by stop(): running programs are killed instead of holding the shutdown up to their timeout.
  let stopping = new AbortController();
  const attempts = createAttempts({
    queue,
    handlers,
    clock,
    log,
    random: deps.random ?? Math.random,
    onSettled: () => wake(),
    stopping: () => stopping.signal,
    onFinished: deps.metrics?.attempt,
    activity: deps.activity,
  });

  let recovered = false;
  let stopped = true;
  let loop: Promise<void> | null = null;
  let wakeUp: (() => void) | null = null;
  /** A wake-up that came while the loop was busy (awaiting storage): its next sleep ends at once. */
  let woken = false;
  const wake = () => (wakeUp ? wakeUp() : (woken = true));

  /** Attempts a previous process left running go back to the queue, once per runner. */
  async function recover(): Promise<void> {
    // Nothing runs before the delivery controls read which handlers are paused.
    await attempts.gateReady();
    if (recovered) return;
    recovered = true;
    const n = await queue.requeueInterrupted(clock.now());
    if (n > 0) log.warn("attempts interrupted by a stop are queued again", { count: n });
    // Hooks caught while their channel had no handler (or not this one) get it now.
    const fromNowOn = new Set(deps.fromNowOn ?? []);
    let late = 0;
    for (const channel of await queue.channelNames()) {
      for (const name of handlersOf(channel)) if (!fromNowOn.has(name)) late += await queue.queueUnattempted(channel, name, clock.now());
    }
    if (late > 0) log.info("pending hooks get handlers configured since they were caught", { count: late });
    // Relays whose key was revoked, or no longer names the channel, while Mailroom was stopped.
    for (const name of (await queue.nextDue()).keys()) {
      if (name.startsWith(RELAY_PREFIX) && !handlers.has(name))
        await endDeliveries(name, `${name} is no longer relayed (its key was removed or no longer names the channel)`);
    }
  }

  async function endDeliveries(name: string, reason: string): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await queue.transaction(async () => {
        const ids = await queue.endHandler(name, reason, clock.now(), END_BATCH);
        await attempts.settleEnded([...new Set(ids)]);
        return ids.length;
      });
      total += n;
      if (n < END_BATCH) break;
      await new Promise<void>((r) => setImmediate(r));
    }
    if (total > 0) log.info(`${name}: ${total} deliveries ended (${reason})`);
    return total;
  }

  function sleep(ms: number): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, Math.min(ms, MAX_SLEEP_MS)));
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function runLoop(): Promise<void> {
    let leaseCheck = 0;
    while (!stopped) {
      try {
        await recover();
        const now = clock.now();
        // Shared storage: keep this process's claims alive, take over those of instances gone.
        if (queue.leaseMs !== undefined && now >= leaseCheck) {
          await queue.renew(now);
          const n = await queue.requeueInterrupted(now);
          if (n > 0) log.warn("attempts whose instance stopped answering are queued again", { count: n });
          leaseCheck = now + queue.leaseMs / 3;
        }
        const started = await attempts.launchDue(now);
        workers.runDue(now);
        let next = Math.min(await attempts.nextDue(), workers.nextCheck(), leaseCheck || Infinity);
        // Due work this process could not claim (the handler's global limit is reached on other
        // instances): look again shortly rather than at once.
        if (queue.leaseMs !== undefined && started === 0 && next <= clock.now()) next = clock.now() + BUSY_RETRY_MS;
        await sleep(next - clock.now());
      } catch (error) {
        // Never let the loop die (a locked database, a closed one during shutdown): wait and go on.
        log.error("runner loop failed", { error: String((error as Error)?.stack ?? error) });
        await sleep(1000);
      }
    }
  }

  return {
    async queueCaught(hooks) {
      const now = clock.now();
      let queued = false;
      for (const h of hooks) {
        for (const name of handlersOf(h.channel)) await queue.queueRound(h.id, name, 0, now), (queued = true);
      }
      return queued;
    },
    async queueRedelivery(hookId, channel) {
      const last = new Map((await queue.latest(hookId)).map((a) => [a.handler, a.attempt]));
      for (const name of handlersOf(channel)) await queue.queueRound(hookId, name, last.get(name) ?? 0, clock.now());
    },
    queueRetry(hookId, channel) {
      return attempts.queueRetry(hookId, handlersOf(channel));
    },
    queueRetries(hooks) {
      return attempts.queueRetries(hooks.map((h) => ({ id: h.id, channelHandlers: handlersOf(h.channel) })));
    },
    cancel(hookId) {
      return queue.cancel(hookId, clock.now());
    },
    cancelChannel(channel, upTo) {
      return queue.cancelChannel(channel, upTo, clock.now());
    },
    hasHandlers: (channel) => handlersOf(channel).length > 0,
    notify() {
      workers.wakeAll();
      wake();
    },
    bind(outcomes, reader) {
      attempts.bind(outcomes, reader);
    },
    addWorker: (worker) => workers.add(worker),
    addForward(channel, forward) {
      const built = createHandlers(
        [{ ...forward, kind: "forward" } as unknown as Config["handlers"][number]],
        process.cwd(),
        outbound,
        () => delivery,
        "dashboard",
      );
      handlers.set(forward.name, built.get(forward.name)!);
      forwards.set(channel, [...(forwards.get(channel) ?? []).filter((n) => n !== forward.name), forward.name]);
    },
    removeForward(channel, name) {
      const left = (forwards.get(channel) ?? []).filter((n) => n !== name);
      if (left.length) forwards.set(channel, left);
      else forwards.delete(channel);
      handlers.delete(name);
    },
    async attach(channel, handler) {
      handlers.set(handler.name, handler);
      forwards.set(channel, [...(forwards.get(channel) ?? []).filter((n) => n !== handler.name), handler.name]);
      // Before the first start, recover() does it for every handler.
      if (!recovered) return;
      const n = await queue.queueUnattempted(channel, handler.name, clock.now());
      if (n > 0) log.info(`${handler.name}: ${n} pending hooks get a delivery`), wake();
    },
    useDelivery(port) {
      delivery = port;
    },
    detach(channel, name) {
      this.removeForward(channel, name);
    },
    endDeliveries,
    async takeOver(name) {
      const n = await queue.takeOver(name);
      if (n > 0) log.info(`${name}: ${n} deliveries in flight on another instance are sent again from here`), wake();
      return n;
    },
    backlog: (handler) => queue.backlog(handler),
    control: (gate) => attempts.control(gate),
    handlerList(existing) {
      const channels = new Map<string, string[]>();
      const names = new Set([...channelHandlers.keys(), ...forwards.keys(), ...(existing ?? undeclared)]);
      for (const channel of names) for (const name of handlersOf(channel)) channels.set(name, [...(channels.get(name) ?? []), channel]);
      return [...handlers.values()]
        .filter((h) => !h.name.startsWith(RELAY_PREFIX))
        .map((handler) => ({ handler, channels: [...new Set(channels.get(handler.name) ?? [])] }));
    },
    channelNames: () => queue.channelNames(),
    async tick() {
      await recover();
      await workers.runAll(clock.now());
      await attempts.runAllDue();
    },
    start() {
      if (loop) return;
      stopped = false;
      loop = runLoop();
    },
    async stop() {
      stopped = true;
      wake();
      await loop;
      loop = null;
      stopping.abort();
      await Promise.all([attempts.settle(), workers.settle()]);
      stopping = new AbortController();
    },
    attempts: (hookId) => queue.list(hookId),
    queueDepth: () => queue.depth(),
  };
}
