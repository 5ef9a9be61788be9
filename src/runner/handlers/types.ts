import type { HookMatcher } from "../../config/checks";
import type { ForwardConfig } from "../../config/handlers";
import type { RawHook } from "../../hooks/store";

/** Retry policy of one handler, in milliseconds. */
export type HandlerPolicy = {
  maxAttempts: number;
  backoff: { initial: number; max: number };
  concurrency: number;
  timeout: number;
  /** Attempts started per span of time at most (`rate`, forwards); none: as many as concurrency allows. */
  rate?: { count: number; per: number };
  /** The circuit breaker (`breaker`); none: off. */
  breaker?: { failures: number; coolDown: number };
};

/** What one attempt produced; `ok` decides success. */
export type AttemptResult = {
  ok: boolean;
  httpStatus?: number;
  exitCode?: number;
  /** Bounded excerpt of the answer. */
  excerpt: string;
  /** Why it failed; empty on success. */
  error: string;
  /** Milliseconds the receiver asked to wait (Retry-After). */
  retryAfter?: number;
  /**
   * The runner's stop cut the attempt short: nothing is recorded, the attempt stays `running`
   * and is queued again at the next start, as after a crash.
   */
  interrupted?: boolean;
  /**
   * The attempt was not made (a relay whose listener went away): it goes back to the queue as it
   * was, with nothing recorded and no retry counted, until the handler is ready again.
   */
  released?: boolean;
  /** The handler does not want the hook (its `when`): nothing was sent, and the hook is not held by it. */
  skipped?: boolean;
  /** The provider kind a forward re-signed the request as (delivery/resign.ts); never the secret. */
  resigned?: string;
  /** What delivery chaos did to the attempt (delivery/chaos.ts), e.g. "duplicate" or "delay,duplicate". */
  chaos?: string;
};

export type AttemptContext = {
  /** 1, 2, ... across RetryHook rounds, as sent in x-mailroom-attempt. */
  attempt: number;
  /** The runner's clock, for Retry-After dates. */
  now: number;
  /** Aborted when the runner stops; a handler that can end its work at once does (command). */
  stopping?: AbortSignal;
};

/** One request a forward sends: the hook as the target will see it. */
export type Outgoing = { url: string; method: string; headers: Headers; body: Uint8Array | undefined };

/** Sends one request and reads the answer; failures are results, not exceptions. */
export type Send = (request: Outgoing) => Promise<AttemptResult>;

/**
 * What happens to a forward's request between the hook and the wire: re-signing and delivery chaos
 * (delivery/), handed in by the composition through Runner.useDelivery. It calls `send` once, more
 * than once (a duplicate) or not at all, and says in the result what it did.
 */
export type Deliver = (request: Outgoing, hook: RawHook, context: AttemptContext, send: Send) => Promise<AttemptResult>;

/**
 * Where a handler was defined: the config file's [[handlers]], or the dashboard and API (a
 * forward added there: its URL is an admin's choice, so no channel secret signs what it sends).
 */
export type HandlerOrigin = "config" | "dashboard";

/** The Deliver of a forward handler by its name, settings and origin; undefined: sent as built. */
export type DeliveryPort = (handler: string, config: ForwardConfig, origin: HandlerOrigin) => Deliver | undefined;

export interface Handler {
  readonly name: string;
  readonly kind: string;
  /** Where it was defined (told by this field, never by its name). */
  readonly origin?: HandlerOrigin;
  readonly policy: HandlerPolicy;
  /** Runs one attempt. Resolves with the result; failures are results, not exceptions. */
  run(hook: RawHook, context: AttemptContext): Promise<AttemptResult>;
  /**
   * Whether attempts may start now; absent means always. A relay is ready while its listener is
   * connected to this instance: until then its attempts stay queued, neither run nor failed.
   */
  ready?(): boolean;
  /** The hooks the handler wants (its `when`); absent: every hook. An attempt on another hook is `skipped`. */
  readonly when?: HookMatcher;
}

/** Drops the `<key>_env` entries the config loader left beside the values it resolved. */
export function withoutEnvKeys(table: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(table).filter(([k]) => !k.endsWith("_env")));
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === "string" ? error : String(error);
}
