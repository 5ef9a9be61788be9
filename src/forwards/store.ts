import type { dashboardHandlers } from "../schema/sqlite";

/** A forward handler added in the dashboard. `headers` is JSON text; durations and times in ms. */
export type ForwardRow = typeof dashboardHandlers.$inferSelect;

/**
 * Storage of the forward handlers added in the dashboard, on either backend
 * (db/stores/forwards.ts). Every method is async and writes in a transaction of its own. Lookups
 * resolve to undefined for a missing handler and changes to false; any method rejects with the
 * database's own error.
 */
export interface ForwardStore {
  /** Every stored forward, by name. */
  list(): Promise<ForwardRow[]>;
  /** The stored handler, or undefined. */
  get(name: string): Promise<ForwardRow | undefined>;
  /** false when the name is taken (nothing changes then). */
  insert(row: ForwardRow): Promise<boolean>;
  /** false when there was no such handler. */
  remove(name: string): Promise<boolean>;
}
