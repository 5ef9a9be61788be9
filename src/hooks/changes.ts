import type { RefusalInput } from "./guards/types";
import type { HookStatus } from "./status";
import type { Log } from "../lib/log";

/**
 * What changed, as reported once it committed (db/transactor.ts `report`): the one place every
 * mutating operation announces itself. Live streams, the PostgreSQL change feed, metrics and the
 * terminal subscribe to the sink; nobody wraps a service or reads a URL to notice a change.
 *
 * - `caught`: a batch of hooks, reported by the catching writer once durable (not at commit: a
 *   crash before the WAL sync could still lose it).
 * - `hook`: a hook's status changed (with its new status), or it was deleted (`deleted`); from
 *   another instance (the change feed), also a hook it caught, with its `eventType` (its time is its id's).
 * - `channel`: a channel was created, paused, resumed, given guards, or deleted; or a reader's
 *   read marks of its hooks changed (tags/: its unread counts, which dashboards read again).
 * - `refusal`: a guard refused a request, at `at` (refusals are written in batches later; the
 *   stream shows them at once).
 * - `state`: a shared setting changed (what every instance keeps in memory), by which part.
 * - `issue`: an alert's issue (alerts/) was opened, reminded of, acknowledged or resolved.
 */
export type Change =
  | { kind: "caught"; hooks: readonly CaughtRow[] }
  | { kind: "hook"; id: string; channel: string; status?: HookStatus; deleted?: boolean; eventType?: string }
  | { kind: "channel"; name: string }
  | { kind: "refusal"; refusal: RefusalInput; at: number }
  | { kind: "state"; part: StatePart }
  | { kind: "issue"; id: string; event: IssueEvent }
  /** A handler's circuit breaker opened, went half-open or closed (on this instance: each counts its own failures). */
  | {
      kind: "breaker";
      handler: string;
      state: "open" | "half_open" | "closed";
      failures: number;
      until?: number;
      /** The channels the handler runs on (a caller limited to channels is told of it when one is theirs). */
      channels: readonly string[];
    };

/** What happened to an alert's issue (the stream's `issue.<event>`). */
export type IssueEvent = "opened" | "reminded" | "acknowledged" | "resolved";
export const ISSUE_EVENTS: readonly IssueEvent[] = ["opened", "reminded", "acknowledged", "resolved"];

/** A caught hook as the writer committed it (hooks/store.ts NewHook); `headers` is its JSON. */
export type CaughtRow = {
  id: string;
  channel: string;
  method: string;
  query: string;
  headers: string;
  body: Uint8Array;
  ip: string;
  createdAt: number;
  /** Its Content-Type as the catcher read it, when known. */
  contentType?: string | null;
  /** Its event type ("" when unknown). */
  eventType: string;
  /** Whether a guard authenticated its sender (hooks/store.ts RawHook). */
  verified?: boolean | null;
};

/** The shared settings each instance keeps in memory and reads again when another changed them. */
export type StatePart =
  | "guards"
  | "forwards"
  | "responses"
  | "api_keys"
  | "users"
  | "dedup"
  | "default_guards"
  | "setup"
  | "relays"
  | "paused_handlers"
  | "alert_rules";

/**
 * `local`: made by this process. `remote`: another instance sharing the database made it (the
 * change feed hands it in); subscribers that tell the others skip those.
 */
export type Origin = "local" | "remote";

export type ChangeListener = (change: Change, origin: Origin) => void;

export interface ChangeSink {
  /** Hands a committed change to every subscriber, in order. Never throws: a failing subscriber is logged. */
  emit(change: Change, origin?: Origin): void;
  /** Calls fn for every change from now on; returns its unsubscribe. */
  subscribe(fn: ChangeListener): () => void;
}

/**
 * The sink: synchronous fan-out, each subscriber guarded so one that throws neither stops the
 * others nor reaches the operation that reported (its caller has committed already).
 *
 * @example const sink = createChangeSink(); sink.subscribe((c) => console.log(c.kind)); sink.emit({ kind: "channel", name: "gh" });
 */
export function createChangeSink(log?: Pick<Log, "error">): ChangeSink & { setLog(log: Pick<Log, "error">): void } {
  const listeners = new Set<ChangeListener>();
  let logger = log;
  return {
    emit(change, origin = "local") {
      for (const fn of listeners) {
        try {
          fn(change, origin);
        } catch (error) {
          logger?.error("a change subscriber failed", { change: change.kind, error: String((error as Error)?.stack ?? error) });
        }
      }
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    setLog(l) {
      logger = l;
    },
  };
}
