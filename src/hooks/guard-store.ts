import type { dashboardGuards } from "../schema/sqlite";

/** A guard defined in the dashboard: `settings` is JSON text without the secret, kept apart. Times in ms. */
export type GuardRow = typeof dashboardGuards.$inferSelect;

/**
 * Storage of the guards defined in the dashboard (the config file's are never stored), on either
 * backend (db/stores/guards.ts). Every method is async and writes in a transaction of its own.
 * Lookups resolve to undefined for a missing guard and changes to false; any method rejects with
 * the database's own error.
 */
export interface GuardStore {
  /** Every stored guard, by name. */
  list(): Promise<GuardRow[]>;
  /** The stored guard, or undefined. */
  get(name: string): Promise<GuardRow | undefined>;
  /** false when the name is taken (nothing changes then). */
  insert(row: GuardRow): Promise<boolean>;
  /** Replaces the settings and secret; false when there is no such guard. */
  update(name: string, settings: string, secret: string | null, updatedAt: number): Promise<boolean>;
  /** false when there was no such guard. */
  remove(name: string): Promise<boolean>;
}
