/**
 * A bulk job's state: running until every batch is done, or cancelled, or failed (`message` says
 * why), or interrupted: the instance running it stopped (its lease ran out) before it ended.
 */
export type BulkJobState = "running" | "done" | "cancelled" | "failed" | "interrupted";

/** Counts of a job's hooks: acted on, skipped (gone, or no longer in a status the action applies to), failed (`send`). */
export type BulkCounts = { done: number; skipped: number; failed: number };

/** A bulk job as stored (times in ms since the epoch; `params` is the action's own fields). */
export type BulkJobRow = BulkCounts & {
  id: string;
  action: string;
  query: string;
  params: Record<string, unknown>;
  actor: string;
  state: BulkJobState;
  total: number;
  until: string | null;
  createdAt: number;
  finishedAt: number | null;
  message: string;
  /** While running: until when the instance running it holds it (renewed as it goes); null for jobs stored before leases. */
  leaseUntil: number | null;
};

/**
 * Where bulk jobs are kept (db/stores/bulk-jobs.ts on both backends), so that any instance sharing
 * the database shows a job's progress and cancels it; the instance that started a job runs it,
 * under a lease it renews (a job whose lease ran out is interrupted, never running for ever).
 */
export interface BulkJobStore {
  /** Stores a new job. Throws when the id exists. */
  create(job: BulkJobRow): Promise<void>;
  get(id: string): Promise<BulkJobRow | undefined>;
  /** Newest first; `before`: ids below it (paging). */
  list(filter: { before?: string; limit: number }): Promise<BulkJobRow[]>;
  /**
   * Writes a running job's counts; resolves to its state now (undefined when gone): a job
   * cancelled meanwhile keeps "cancelled", and its runner stops.
   */
  progress(id: string, counts: BulkCounts, leaseUntil: number): Promise<BulkJobState | undefined>;
  /** Extends a running job's lease to `until` (its instance is alive: a batch may take long); other states are left. */
  renew(id: string, until: number): Promise<void>;
  /**
   * Moves every running job whose lease ran out before `now` (or that has none), or with `all`
   * every running job, to "interrupted" at `now` with `message`: their instance stopped. Resolves
   * to how many. Its runner, should it still be alive, sees the state at its next progress and stops.
   */
  interruptAbandoned(now: number, message: string, all?: boolean): Promise<number>;
  /**
   * Moves a running job to `state` (done, cancelled or failed) at `at`, with `message`: resolves to
   * the job as it is now, "conflict" when it is not running (finished, or cancelled already),
   * undefined when there is no such job. Compare-and-set: of two racing one wins.
   */
  finish(id: string, state: Exclude<BulkJobState, "running">, at: number, message: string): Promise<BulkJobRow | "conflict" | undefined>;
}
