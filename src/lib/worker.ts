/** Durable background work the runner drives (handler attempts, the translation simulator, retention). */
export interface Worker {
  readonly name: string;
  /**
   * Does the work due at `now` (ms since epoch) and resolves to the time of the next due work,
   * or null when nothing is scheduled. State lives in the database, so a restart resumes.
   * The loop calls it when that time comes, on notify(), and at least every second (work may
   * be created without telling the runner), so it must do only what is due; tick() calls it once.
   */
  tick(now: number): Promise<number | null>;
}
