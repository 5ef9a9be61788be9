import type { Transactor } from "../lib/transactor";
import type { ATTEMPT_OUTCOMES, attempts } from "../schema/sqlite/runner";
import type { AttemptResult } from "./handlers";

/**
 * The attempts table as the runner's durable queue. Methods marked "in transaction" are called
 * inside a caller's transaction; none throws on a missing row (a hook deleted meanwhile takes
 * its attempts with it through ON DELETE CASCADE).
 */
export type Outcome = (typeof ATTEMPT_OUTCOMES)[number];

/** Handler names of relays ("relay:<key label>:<channel>"). */
export const RELAY_PREFIX = "relay:";

/**
 * Whether an attempt, the latest of its handler on a hook, keeps the hook from being handled:
 * anything but a success, except a relay delivery that ended (cancelled) because its key was
 * revoked or no longer relays the channel: the hook is then settled by its other handlers.
 */
export const holdsHook = (a: Pick<AttemptRow, "outcome" | "handler">): boolean =>
  !settledHook(a) && !(a.outcome === "cancelled" && a.handler.startsWith(RELAY_PREFIX));

/** Whether an attempt, the latest of its handler on a hook, is done with it: it succeeded, or the handler did not want the hook (its `when`). */
export const settledHook = (a: Pick<AttemptRow, "outcome">): boolean => a.outcome === "succeeded" || a.outcome === "skipped";

/** A row of the attempts table, as its drizzle schema infers it (PostgreSQL's adds lease columns the runner never sees). */
export type AttemptRow = typeof attempts.$inferSelect;

/**
 * The runner's durable queue, met by SQLite (db/sqlite) and PostgreSQL (db/pg). Every method is
 * async; "in transaction" ones run inside the caller's `transaction()`. None rejects on a missing
 * row; each rejects with the database's error when the database fails.
 */
export interface AttemptQueue extends Transactor {
  /** In transaction: the first attempt of a new round (1 for a caught hook, last + 1 after RetryHook). */
  queueRound(hookId: string, handler: string, lastAttempt: number, dueAt: number): Promise<void>;
  /** In transaction: the attempt after a failed one, in the same round. */
  queueNext(row: AttemptRow, dueAt: number): Promise<void>;
  /** The latest attempt of each handler of the hook, by handler name. */
  latest(hookId: string): Promise<AttemptRow[]>;
  /** The latest attempt of each handler of each of these hooks, in one statement (a batch being settled); rows of hooks gone are left out. */
  latestOf(hookIds: readonly string[]): Promise<AttemptRow[]>;
  /** Every channel that holds hooks or was declared. */
  channelNames(): Promise<string[]>;
  /** A first attempt of `handler` for each pending hook of the channel that never had one; resolves to how many. */
  queueUnattempted(channel: string, handler: string, now: number): Promise<number>;
  /** In transaction: cancels every queued attempt of the hook. */
  cancel(hookId: string, now: number): Promise<void>;
  /** In transaction: cancels the queued attempts of the channel's hooks up to `upTo`. */
  cancelChannel(channel: string, upTo: string, now: number): Promise<void>;
  /**
   * In transaction: ends at most `limit` of the handler's attempts still waiting (queued, or running
   * on any instance) as `cancelled` with `error` (a relay whose key was revoked); resolves to their
   * hooks' ids (fewer than `limit`: none is left).
   */
  endHandler(handler: string, error: string, now: number, limit: number): Promise<string[]>;
  /**
   * Claims (queued -> running, by this process) the oldest due attempts of one handler: at most
   * `limit`, and no more than `concurrency` running for the handler in all (across instances
   * sharing the database). Resolves to the claimed rows; an attempt is claimed by one process only.
   */
  claimDue(handler: string, now: number, limit: number, concurrency: number): Promise<AttemptRow[]>;
  /** Names of the handlers with queued attempts and the earliest due time of each. */
  nextDue(): Promise<Map<string, number>>;
  /** In transaction: running -> outcome with what the attempt produced; false when the row is gone or no longer this process's. */
  finish(id: number, outcome: Outcome, result: AttemptResult, now: number): Promise<boolean>;
  /**
   * Attempts whose holder is gone go back to the queue, due now; resolves to how many. SQLite (one
   * process per data file): every running attempt, called at start. PostgreSQL: those whose lease
   * expired (their instance died or lost the database), called at start and every `leaseMs / 2`.
   */
  requeueInterrupted(now: number): Promise<number>;
  /** Where claims carry a lease (PostgreSQL): its length; the runner renews its own every leaseMs / 3. */
  readonly leaseMs?: number;
  /** Extends the leases of the attempts this process runs. */
  renew(now: number): Promise<void>;
  /** How many attempts are queued. */
  depth(): Promise<number>;
  /**
   * An attempt that was not made (a relay whose listener is away) goes back to the queue as it
   * was, its due time kept (so the oldest stays first); false when it is no longer this process's.
   */
  release(id: number): Promise<boolean>;
  /**
   * The handler's attempts running under other instances' claims go back to the queue, due as they
   * were; resolves to how many. A relay's listener connected here: the connection that carried
   * them is gone, so their acknowledgements cannot come (SQLite: one process holds every claim, 0).
   */
  takeOver(handler: string): Promise<number>;
  /** How many attempts of the handler wait (queued or running), and the earliest due time among them (null when none). */
  backlog(handler: string): Promise<{ count: number; oldest: number | null }>;
  /** Every attempt of the hook, in the order they were queued. */
  list(hookId: string): Promise<AttemptRow[]>;
}
