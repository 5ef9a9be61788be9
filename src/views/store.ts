/** A saved view as stored: `owner` is "" when shared, else the user's e-mail address (or "api:<label>"). */
export type ViewRow = { owner: string; name: string; query: string; createdBy: string; createdAt: number; updatedAt: number };

/** The owner of shared views. */
export const SHARED_OWNER = "";

/** Where saved views are kept (db/stores/views.ts on both backends). */
export interface ViewStore {
  /** The views of these owners, by name then owner (shared first). */
  list(owners: readonly string[]): Promise<ViewRow[]>;
  get(owner: string, name: string): Promise<ViewRow | undefined>;
  /**
   * Saves a view: a new one, or the same owner's view of that name with its query replaced
   * (createdAt and createdBy kept). Resolves to the view as stored.
   */
  save(view: ViewRow): Promise<ViewRow>;
  /** Removes a view; false when there was none. */
  remove(owner: string, name: string): Promise<boolean>;
}
