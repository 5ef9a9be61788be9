import type { RawHook } from "./store";

/**
 * What the hook service needs of the in-process runner, and what it gives back: declared here, so
 * that hooks/ never imports runner/ (runner/index.ts implements HookRunner, and the composition
 * hands it in). The hook service reaches the runner only through HookRunner, and tests drive
 * the runner with tick() and a fake clock.
 */

/** How the hook service tells the runner about hooks. The `in transaction` calls run inside the
 * caller's transaction (db/transactor.ts) so that queueing commits or rolls back with the change. */
export interface HookRunner {
  /** In transaction: queue the first attempt of each handler of each hook's channel; true if any was queued. */
  queueCaught(hooks: readonly { id: string; channel: string }[]): Promise<boolean>;
  /** In transaction: queue again each handler whose last attempt for this hook failed. */
  queueRetry(hookId: string, channel: string): Promise<void>;
  /** In transaction: queueRetry of each of these hooks, in a few statements (a bulk retry's batch). */
  queueRetries(hooks: readonly { id: string; channel: string }[]): Promise<void>;
  /** In transaction: a new round of every handler of the channel, whatever came before (RedeliverHook). */
  queueRedelivery(hookId: string, channel: string): Promise<void>;
  /** In transaction: cancel every attempt still queued for this hook. */
  cancel(hookId: string): Promise<void>;
  /** In transaction: cancel every attempt still queued for the channel's hooks up to id `upTo`. */
  cancelChannel(channel: string, upTo: string): Promise<void>;
  /** Whether the channel has handlers (then ProcessHook and FailHook answer 409). */
  hasHandlers(channel: string): boolean;
  /** New work may be due: wake the loop. Called after the transaction committed. */
  notify(): void;
}

/** What the runner reports back; implemented by the hook service. Both are no-ops unless the hook is pending. */
export interface HookOutcomes {
  /**
   * Every handler succeeded: status handled, event `handled` with empty actor, finalized_at set.
   * `known` is the hook as the caller read it in this transaction or before (its status is only a
   * starting point: the change is compare-and-set on it), which spares reading it again.
   * `message`: the event's, when there is something to say (no handler wanted the hook).
   */
  handled(hookId: string, known?: RawHook, message?: string): Promise<void>;
  /** A handler gave up: status failed, event `failed` with the handler's name as actor. */
  failed(hookId: string, handler: string, message: string): Promise<void>;
}

/** What the runner reads of a hook to hand it to handlers; implemented by the hook service. */
export interface HookReader {
  raw(id: string): Promise<RawHook | undefined>;
  /** These hooks in one read (the attempts claimed together); those gone are left out. */
  rawMany?(ids: readonly string[]): Promise<RawHook[]>;
}
