/**
 * The laptop's side of the relay (`mailroom listen`, `[[relays]]`): dials out to upstream's relay
 * endpoint, stores each hook it receives in this Mailroom's own store under upstream's id, with
 * upstream's method, query, headers, exact body, sender address and catch time, and acknowledges
 * it once committed (durable). A hook received twice (upstream sends again what was not
 * acknowledged before a connection was lost) is stored once and acknowledged again. The hooks
 * then reach this Mailroom's own handlers (`--forward-to`) like any caught hook.
 *
 * Upstream is another machine: every frame is checked as the catching endpoint checks a request
 * (relay/frame-check.ts), and one that fails, or a hook before `hello`, is refused (never
 * acknowledged, so upstream keeps it), logged with the reason, and the connection dropped; the
 * next one waits as after a failed connection (the backoff grows). A refusal no retry can change
 * (401, 403, 404: the preflight's answer) ends the client (`refused`).
 */
import type { BatchWriter } from "../hooks/writer";
import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import { printable } from "../lib/terminal";
import { checkFrame } from "./frame-check";
import { preflight, reconnectDelay } from "./preflight";
import { HEARTBEAT_MS, parseControl, RELAY_PATH, RELAY_SILENCE_MS, type Control, type RelayedHook } from "./protocol";

export type RelayTarget = { url: string; channel: string; token: string };
/** Who listens: kept in this Mailroom's store (the same laptop after a restart), its host and start. */
export type ListenerIdentity = { listener: string; host: string; startedAt: number };

/** What the laptop's dashboard and metrics show of one relay. */
export type ListenState = {
  url: string;
  channel: string;
  connected: boolean;
  caught_up: boolean;
  /** Why the last connection failed or ended, if it did. */
  last_error: string | null;
  received: number;
  acknowledged: number;
  /**
   * Hooks upstream holds for this laptop (queued, or sent and not acknowledged yet), as upstream last
   * said (at connecting, then with each heartbeat: every 5 s). While not connected, as of the last
   * connection.
   */
  waiting: number;
  /**
   * How far behind upstream this laptop is, in seconds: the age of the oldest hook upstream holds for
   * it (0 when none), as upstream last said, plus the time since; while not connected, the time since
   * the connection was lost (or since the start, before any).
   */
  lag_seconds: number;
};

/** Upstream's words, as printed on this terminal: no control character, at most 300 characters. */
const words = (text: unknown) => printable(String(text).slice(0, 300));

/** Why a connection closed without a reason of its own, from its close code. */
function closedWithout(code: number): string {
  if (code === 1006) return "the connection dropped without a word: upstream stopped, or the network failed";
  if (code === 1001) return "upstream is going away (stopping or restarting)";
  return `closed (${code})`;
}

export function startRelayClient(deps: {
  target: RelayTarget;
  identity: ListenerIdentity;
  writer: BatchWriter;
  /** Whether this store holds the hook already (its id). */
  stored: (id: string) => Promise<boolean>;
  /** This Mailroom's `[hooks] max_body`: a larger body is refused, as catching refuses it. */
  maxBody: number;
  clock: Clock;
  log: Log;
  /**
   * Whether this Mailroom's config declares the channel with a guard that authenticates the
   * sender: a relayed hook is verified as upstream says, else (an upstream that does not say) as this says.
   */
  channelVerifies?: (channel: string) => boolean;
  /** The wait before the next connection after `failures` failed ones in a row (tests shorten it). */
  retryDelay?: (failures: number) => number;
}) {
  const { target, identity, writer, clock, log } = deps;
  const retryDelay = deps.retryDelay ?? reconnectDelay;
  const base = target.url.replace(/\/+$/, "");
  const endpoint = `${base}${RELAY_PATH}/channels/${encodeURIComponent(target.channel)}`;
  const headers = {
    authorization: `Bearer ${target.token}`,
    "x-mailroom-listener": identity.listener,
    "x-mailroom-host": identity.host,
    "x-mailroom-started": String(identity.startedAt),
  };
  const state: ListenState = {
    url: base,
    channel: target.channel,
    connected: false,
    caught_up: false,
    last_error: null,
    received: 0,
    acknowledged: 0,
    waiting: 0,
    lag_seconds: 0,
  };
  /** When upstream last said what waits (its lag then), and when the last connection was lost (or the client started). */
  let toldAt = 0;
  let toldLag = 0;
  let lostAt = clock.now();
  /** What upstream says waits, with hello and each heartbeat (an older upstream says it with hello only). */
  let heartbeatsTell = false;
  const told = (waiting: unknown, lag: unknown) => {
    if (!count(waiting)) return;
    state.waiting = waiting;
    (toldLag = count(lag) ? lag : 0), (toldAt = clock.now());
  };
  let stopped = false;
  let socket: WebSocket | undefined;
  let wakeSleep: (() => void) | undefined;
  /** Hooks being stored, by id: a copy received meanwhile waits for the same write. */
  const storing = new Map<string, Promise<void>>();

  async function store(hook: RelayedHook): Promise<void> {
    const running = storing.get(hook.id);
    if (running) return running;
    const work = (async () => {
      if (await deps.stored(hook.id)) return;
      await writer.write({
        id: hook.id,
        channel: hook.channel,
        method: hook.method,
        query: hook.query,
        headers: JSON.stringify(hook.headers),
        body: hook.body,
        ip: hook.ip,
        createdAt: hook.createdAt,
        eventType: hook.eventType,
        verified: hook.verified ?? deps.channelVerifies?.(hook.channel) ?? null,
        contentType: hook.headers["content-type"] ?? null,
      });
    })().finally(() => storing.delete(hook.id));
    storing.set(hook.id, work);
    return work;
  }

  /**
   * One connection, until it ends; resolves to whether upstream accepted it, whether this side
   * refused a frame of it, and why it ended.
   */
  function connectOnce(): Promise<{ accepted: boolean; refusedFrame: boolean; reason: string }> {
    return new Promise((resolve) => {
      // Bun's WebSocket client has no largest-message setting: a message is read whole before it
      // is looked at, and checkFrame refuses it from its length prefix. Without compression what is
      // buffered is what travelled (a deflated 60 MB body would arrive as a few KB).
      const ws = new WebSocket(endpoint.replace(/^http/, "ws"), { headers, perMessageDeflate: false } as unknown as string[]);
      ws.binaryType = "arraybuffer";
      socket = ws;
      let accepted = false;
      let refusedFrame = false;
      let reason = "";
      /** The largest body upstream's hello said it catches. */
      let announcedMaxBody = Number.POSITIVE_INFINITY;
      /** Refuses what upstream sent: nothing more of this connection is read or acknowledged. */
      const refuse = (why: string) => {
        refusedFrame = true;
        reason = `refused a frame from upstream: ${why}`;
        log.warn(`relay: ${reason}; dropping the connection`, { channel: target.channel });
        ws.close(1008, "the listener refused a frame");
      };
      let lastHeard = clock.now();
      let acks: string[] = [];
      let flushing = false;
      const send = (m: Control) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(m));
      const flush = () => {
        flushing = false;
        if (acks.length === 0) return;
        // Closed meanwhile: upstream sends these again on the next connection, and they are acknowledged then.
        if (ws.readyState !== WebSocket.OPEN) return void (acks = []);
        state.acknowledged += acks.length;
        send({ type: "ack", ids: acks });
        acks = [];
      };
      const beat = setInterval(() => {
        if (clock.now() - lastHeard > RELAY_SILENCE_MS) {
          reason = "no heartbeat from upstream";
          ws.close();
          return;
        }
        send({ type: "heartbeat" });
      }, HEARTBEAT_MS);
      ws.onmessage = (event) => {
        if (refusedFrame) return;
        lastHeard = clock.now();
        if (typeof event.data === "string") {
          const control = parseControl(event.data);
          if (control?.type === "hello") {
            if (accepted) return refuse("a second hello");
            if (control.channel !== target.channel) return refuse(`hello names channel ${JSON.stringify(words(control.channel).slice(0, 80))}`);
            accepted = true;
            state.connected = true;
            state.last_error = null;
            // What upstream catches at most: a larger body cannot be one of its hooks.
            if (count(control.max_body)) announcedMaxBody = control.max_body;
            if (count(control.max_body) && control.max_body > deps.maxBody)
              log.warn(
                `relay: upstream takes bodies up to ${control.max_body} bytes, this Mailroom up to ${deps.maxBody}: a larger hook would be refused here; raise [hooks] max_body`,
                { channel: target.channel },
              );
            told(control.waiting, control.lag_seconds);
            log.info(`relay: connected to ${base}, ${count(control.waiting) ? control.waiting : 0} waiting`, { channel: target.channel });
          } else if (control?.type === "caught_up") {
            state.caught_up = true;
            // An older upstream's heartbeats say nothing of what waits: caught up, nothing does.
            if (!heartbeatsTell) told(0, 0);
            log.info("relay: caught up", { channel: target.channel });
          } else if (control?.type === "heartbeat" && count(control.waiting)) {
            heartbeatsTell = true;
            told(control.waiting, control.lag_seconds);
          } else if (control?.type === "error") reason = words(control.message);
          return;
        }
        if (!accepted) return refuse("a hook before hello");
        const hook = checkFrame(new Uint8Array(event.data as ArrayBuffer), {
          channel: target.channel,
          announcedMaxBody,
          maxBody: deps.maxBody,
          now: clock.now(),
        });
        if (typeof hook === "string") return refuse(hook);
        if ("tooLarge" in hook) {
          log.warn(`relay: not storing hook ${hook.id}: ${hook.tooLarge}`, { channel: target.channel });
          return void send({ type: "nack", id: hook.id, error: hook.tooLarge });
        }
        state.received++;
        store(hook).then(
          () => {
            acks.push(hook.id);
            if (!flushing) (flushing = true), setImmediate(flush);
          },
          (error) => send({ type: "nack", id: hook.id, error: String((error as Error)?.message ?? error) }),
        );
      };
      ws.onerror = () => {
        reason ||= "the connection failed";
      };
      ws.onclose = (event) => {
        clearInterval(beat);
        if (state.connected) lostAt = clock.now();
        state.connected = false;
        state.caught_up = false;
        socket = undefined;
        resolve({ accepted, refusedFrame, reason: reason || (event.reason ? words(event.reason) : closedWithout(event.code)) });
      };
    });
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeSleep = undefined;
        resolve();
      }
      wakeSleep = done;
    });
  }

  /** Resolves to the refusal that ended the client (401, 403, 404...), or undefined once stopped. */
  const running = (async (): Promise<string | undefined> => {
    let failures = 0;
    while (!stopped) {
      const refused = await preflight(endpoint, headers);
      if (stopped) break;
      if (refused?.permanent) {
        const message = `upstream ${base} refuses channel ${target.channel}: ${refused.message}; not retrying`;
        state.last_error = message;
        log.error(`relay: ${message}`, { channel: target.channel });
        return message;
      }
      if (refused) {
        state.last_error = refused.message;
        const delay = retryDelay(failures++);
        log.warn(`relay: cannot connect to ${base} (channel ${target.channel}): ${refused.message}; retrying in ${delay / 1000}s`);
        await sleep(delay);
        continue;
      }
      const { accepted, refusedFrame, reason } = await connectOnce();
      if (stopped) break;
      // A connection whose frame was refused is a failure: the same frame comes first again.
      if (accepted && !refusedFrame) failures = 0;
      state.last_error = reason;
      const delay = retryDelay(failures++);
      if (accepted) log.warn(`relay: lost; reconnecting in ${delay / 1000}s (${reason})`, { channel: target.channel });
      else log.warn(`relay: cannot connect to ${base} (channel ${target.channel}): ${reason}; retrying in ${delay / 1000}s`);
      await sleep(delay);
    }
    return undefined;
  })();

  return {
    /** Resolves to why upstream refuses this relay for good (the client has ended), or undefined once stopped. */
    refused: running,
    state(): ListenState {
      const now = clock.now();
      const lag = !state.connected ? (now - lostAt) / 1000 : state.waiting === 0 ? 0 : toldLag + (now - toldAt) / 1000;
      return { ...state, lag_seconds: Math.max(0, lag) };
    },
    /** Closes the connection (what was not acknowledged is sent again next time) and waits for the loop. */
    async stop(): Promise<void> {
      stopped = true;
      socket?.close(1000, "listener stopping");
      wakeSleep?.();
      await running;
      await Promise.allSettled([...storing.values()]);
    },
  };
}

export type RelayClient = ReturnType<typeof startRelayClient>;

/** A count upstream says (waiting, seconds, bytes): a finite number, not negative. */
function count(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}
