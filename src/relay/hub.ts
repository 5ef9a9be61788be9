/**
 * The upstream side of the relay: one runner handler per relay key and channel
 * ("relay:<label>:<channel>"), and the WebSocket sessions of the listeners. A relay attempt runs
 * only while its listener is connected to this instance (Handler.ready): it sends the hook and
 * succeeds when the laptop acknowledges it, which it does once the hook is committed to its own
 * store. A connection lost meanwhile releases the attempt (queued again as it was, nothing
 * counted), so a hook waits for the laptop within retention and never fails for its absence.
 */
import type { ServerWebSocket } from "bun";
import type { ApiKey } from "../hooks/auth";
import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import type { Runner } from "../runner";
import type { AttemptResult, Handler } from "../runner/handlers";
import { CLOSE_BUSY, CLOSE_REFUSED, encodeHook, HEARTBEAT_MS, parseControl, RELAY_SILENCE_MS, relayHandlerName, type Control } from "./protocol";
import { busyMessage, lagSeconds, type RelayCounts, relayStates } from "./state";
import type { Claim, RelayListener, RelayStore } from "./store";

export { busyMessage, type RelayState } from "./state";

/** Relay attempts in flight per listener: hooks sent and not acknowledged yet (a backlog streams without waiting on round trips). */
export const RELAY_WINDOW = 256;
/**
 * Catching goes first: while this instance catches more than BUSY_RATE hooks a second (counted over
 * BUSY_MS), each listener gets at most BUSY_WINDOW hooks in flight, sent in one burst every
 * BUSY_WINDOW / BUSY_SEND_RATE seconds (so their claim, their acknowledgement and their settling
 * are one transaction each, not one per hook). A steady stream is relayed as it comes; in a flood
 * the relay lags and catches up once it ends, instead of taking half of catching's throughput
 * (each relayed hook costs upstream about as much as catching it).
 */
export const BUSY_WINDOW = 64;
const BUSY_RATE = 2_000;
const BUSY_SEND_RATE = 200;
const BUSY_MS = 250;
/** Bytes the socket may hold unsent before the next hook waits for it to drain (large bodies). */
const HIGH_WATER = 8 * 1024 * 1024;

/** Who connected, kept on the socket. */
export type RelaySocketData = {
  handler: string;
  label: string;
  channel: string;
  listener: string;
  host: string;
  startedAt: number;
};

type Session = {
  ws: ServerWebSocket<RelaySocketData>;
  data: RelaySocketData;
  connectedAt: number;
  pending: Map<string, ((result: AttemptResult) => void)[]>;
  lastHeard: number;
  caughtUp: boolean;
  /** Sends waiting for the socket to drain. */
  drained: (() => void)[];
  closed: boolean;
  /** While catching is busy: when the current burst of sends ends (performance.now()), and how many it has left. */
  burstEnds: number;
  burstLeft: number;
};

export function createRelayHub(deps: { store: RelayStore; runner: Runner; clock: Clock; log: Log; instance: string; maxBody: number }) {
  const { store, runner, clock, log, instance } = deps;
  const sessions = new Map<string, Session>();
  /** Relays of the keys, by handler name: attached to the runner. */
  const relays = new Map<string, { label: string; channel: string }>();
  const counts = new Map<string, RelayCounts>();
  /** Hooks caught here since `since`, and until when catching counts as busy. */
  const catching = { since: 0, count: 0, busyUntil: 0 };
  const busy = () => performance.now() < catching.busyUntil;
  const countOf = (handler: string) => counts.get(handler) ?? (counts.set(handler, { delivered: 0, acknowledged: 0 }), counts.get(handler)!);

  function handlerFor(name: string): Handler {
    return {
      name,
      kind: "relay",
      // Never given up for the laptop being away (it is not run then); a laptop that cannot store a hook is retried.
      policy: {
        maxAttempts: 1000,
        backoff: { initial: 1_000, max: 60_000 },
        // Read at each claim: the window narrows while catching is busy.
        get concurrency() {
          return busy() ? BUSY_WINDOW : RELAY_WINDOW;
        },
        timeout: 0,
      },
      ready: () => sessions.has(name),
      async run(hook) {
        const session = sessions.get(name);
        const released: AttemptResult = { ok: false, excerpt: "", error: "", released: true };
        if (!session) return released;
        // A laptop reading slower than hooks come (large bodies): wait for the socket to drain.
        while (!session.closed && session.ws.getBufferedAmount() > HIGH_WATER) await new Promise<void>((r) => session.drained.push(r));
        // Catching is busy: wait for a burst with room (BUSY_WINDOW every BUSY_WINDOW / BUSY_SEND_RATE s).
        while (!session.closed && busy()) {
          const now = performance.now();
          if (now >= session.burstEnds) (session.burstEnds = now + (1000 * BUSY_WINDOW) / BUSY_SEND_RATE), (session.burstLeft = BUSY_WINDOW);
          if (session.burstLeft > 0) {
            session.burstLeft--;
            break;
          }
          await new Promise((r) => setTimeout(r, session.burstEnds - now));
        }
        if (session.closed) return released;
        return new Promise<AttemptResult>((resolve) => {
          const waiting = session.pending.get(hook.id);
          if (waiting) waiting.push(resolve);
          else session.pending.set(hook.id, [resolve]);
          countOf(name).delivered++;
          // 0: dropped (the connection is failing): closing it releases this hook with the others.
          if (session.ws.send(encodeHook(hook)) === 0) session.ws.close(1011, "the hook could not be sent");
        });
      },
    };
  }

  /** Attaches a relay handler for each channel of each relay key, and detaches those of keys gone. */
  function sync(keys: readonly ApiKey[]): void {
    const wanted = new Map<string, { label: string; channel: string }>();
    for (const k of keys) {
      if (!k.grant?.scopes.includes("relay")) continue;
      for (const channel of k.grant.channels) wanted.set(relayHandlerName(k.label, channel), { label: k.label, channel });
    }
    for (const [name, r] of relays) {
      if (wanted.has(name)) continue;
      relays.delete(name);
      runner.detach(r.channel, name);
      const revoked = !keys.some((k) => k.label === r.label);
      sessions.get(name)?.ws.close(CLOSE_REFUSED, revoked ? "the relay key was revoked" : "the relay key no longer relays this channel");
      // Its deliveries end, so their hooks settle by their other handlers instead of waiting for ever.
      const reason = revoked ? `relay key "${r.label}" was revoked` : `relay key "${r.label}" no longer relays channel "${r.channel}"`;
      runner
        .endDeliveries(name, reason)
        .catch((error) => log.error("relay: could not end the deliveries of a revoked relay", { handler: name, error: String(error) }));
    }
    for (const [name, r] of wanted) {
      if (relays.has(name)) continue;
      relays.set(name, r);
      runner
        .attach(r.channel, handlerFor(name))
        .catch((error) => log.error("relay: could not queue the pending hooks of a new relay", { handler: name, error: String(error) }));
    }
  }

  const send = (ws: ServerWebSocket<RelaySocketData>, message: Control) => ws.send(JSON.stringify(message));

  /** Sends caught_up once nothing is in flight and nothing waits (the attempts acknowledged have settled). */
  async function checkCaughtUp(session: Session): Promise<void> {
    if (session.caughtUp || session.pending.size > 0) return;
    const { count } = await runner.backlog(session.data.handler);
    if (count === 0 && !session.caughtUp && sessions.get(session.data.handler) === session) {
      session.caughtUp = true;
      send(session.ws, { type: "caught_up" });
    }
  }

  function releaseAll(session: Session): void {
    session.closed = true;
    for (const r of session.drained.splice(0)) r();
    for (const waiting of session.pending.values()) for (const r of waiting) r({ ok: false, excerpt: "", error: "", released: true });
    session.pending.clear();
  }

  const websocket = {
    async open(ws: ServerWebSocket<RelaySocketData>) {
      const d = ws.data;
      const now = clock.now();
      let claim: Claim;
      try {
        claim = await store.claim({ ...d, connectedAt: now, instance }, now, now - 3 * HEARTBEAT_MS);
      } catch (error) {
        log.error("relay: could not record the listener", { handler: d.handler, error: String(error) });
        return ws.close(1011, "upstream could not record the listener; try again");
      }
      if (!claim.claimed) {
        send(ws, { type: "error", message: busyMessage(d.channel, claim.holder) });
        return ws.close(CLOSE_BUSY, "another listener holds the relay");
      }
      // The same laptop connected again (a lost connection not noticed yet): the new one takes over.
      const old = sessions.get(d.handler);
      const session: Session = {
        ws,
        data: d,
        connectedAt: now,
        pending: new Map(),
        lastHeard: now,
        caughtUp: false,
        drained: [],
        closed: false,
        burstEnds: 0,
        burstLeft: 0,
      };
      sessions.set(d.handler, session);
      if (old) releaseAll(old), old.ws.close(CLOSE_BUSY, "the same listener connected again");
      // What another instance sent on the connection this one replaces will never be acknowledged there.
      await runner.takeOver(d.handler).catch((error) => log.warn("relay: could not take over the deliveries in flight elsewhere", { error: String(error) }));
      const { count, oldest } = await runner.backlog(d.handler);
      send(ws, { type: "hello", waiting: count, channel: d.channel, max_body: deps.maxBody, lag_seconds: lagSeconds(oldest, clock.now()) });
      log.info(`relay: ${d.host} listens on ${d.channel} (key ${d.label}), ${count} waiting`);
      runner.notify();
      void checkCaughtUp(session);
    },
    message(ws: ServerWebSocket<RelaySocketData>, message: string | Buffer) {
      const session = sessions.get(ws.data.handler);
      if (!session || session.ws !== ws) return;
      session.lastHeard = clock.now();
      if (typeof message !== "string") return;
      const control = parseControl(message);
      if (control?.type === "ack") {
        for (const id of control.ids) {
          const waiting = session.pending.get(id);
          if (!waiting) continue;
          session.pending.delete(id);
          countOf(ws.data.handler).acknowledged++;
          for (const r of waiting) r({ ok: true, excerpt: `committed by ${ws.data.host}`, error: "" });
        }
        if (session.pending.size === 0) setTimeout(() => void checkCaughtUp(session), 50);
      } else if (control?.type === "nack") {
        const waiting = session.pending.get(control.id);
        session.pending.delete(control.id);
        for (const r of waiting ?? []) r({ ok: false, excerpt: "", error: `the listener could not store it: ${String(control.error).slice(0, 500)}` });
      }
    },
    drain(ws: ServerWebSocket<RelaySocketData>) {
      const session = sessions.get(ws.data.handler);
      if (session?.ws === ws) for (const r of session.drained.splice(0)) r();
    },
    close(ws: ServerWebSocket<RelaySocketData>) {
      const session = sessions.get(ws.data.handler);
      if (!session || session.ws !== ws) return;
      sessions.delete(ws.data.handler);
      releaseAll(session);
      log.info(`relay: ${ws.data.host} stopped listening on ${ws.data.channel}`);
      store.release(ws.data.handler, ws.data.listener, instance).catch((error) => log.warn("relay: could not release the listener", { error: String(error) }));
    },
  };

  /** Heartbeats: each listener hears from upstream, upstream notes it in the database, a silent one is closed. */
  const timer = setInterval(() => {
    const now = clock.now();
    for (const session of sessions.values()) {
      if (now - session.lastHeard > RELAY_SILENCE_MS) {
        session.ws.close(4408, "no heartbeat from the listener");
        continue;
      }
      runner.backlog(session.data.handler).then(
        ({ count, oldest }) => send(session.ws, { type: "heartbeat", waiting: count, lag_seconds: lagSeconds(oldest, clock.now()) }),
        () => send(session.ws, { type: "heartbeat" }),
      );
      store
        .touch(session.data.handler, session.data.listener, instance, now)
        .then((mine) => {
          if (!mine) session.ws.close(CLOSE_BUSY, "the listener connected again elsewhere");
        })
        .catch(() => {});
      if (!session.caughtUp) void checkCaughtUp(session);
    }
  }, HEARTBEAT_MS);
  timer.unref?.();

  return {
    sync,
    websocket,
    /** This instance caught `n` hooks (the change sink's local `caught`): the relay yields while catching is busy. */
    caught(n: number): void {
      const now = performance.now();
      if (now - catching.since > BUSY_MS) (catching.since = now), (catching.count = 0);
      catching.count += n;
      if (catching.count > (BUSY_RATE * BUSY_MS) / 1000) catching.busyUntil = now + BUSY_MS;
    },
    /** Every relay of the keys, with its listener (on any instance) and what waits for it. */
    state: () => relayStates({ store, runner, clock, relays, countOf }),
    /** Whether the relay's listener is connected here (tests, the endpoint). */
    connected: (handler: string) => sessions.has(handler),
    /** The listener holding the relay elsewhere, if fresh: the preflight's 409. */
    async holder(handler: string, listener: string): Promise<RelayListener | undefined> {
      const l = (await store.list()).find((x) => x.handler === handler);
      return l && l.listener !== listener && l.seenAt >= clock.now() - 3 * HEARTBEAT_MS ? l : undefined;
    },
    /**
     * Stopping: each listener's hooks in flight go back to the queue (the runner's stop waits for
     * that) and its relay is let go at once, so the laptop takes it over on another instance (or
     * this one restarted) without waiting for its heartbeats to go stale.
     */
    async close(): Promise<void> {
      clearInterval(timer);
      const closing = [...sessions.values()];
      sessions.clear();
      for (const s of closing) releaseAll(s), s.ws.close(1001, "upstream is stopping");
      await Promise.allSettled(closing.map((s) => store.release(s.data.handler, s.data.listener, instance)));
    },
  };
}

export type RelayHub = ReturnType<typeof createRelayHub>;
