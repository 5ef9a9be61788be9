/**
 * Storage of the custom responses set through the management API (the config file's are never
 * stored), by channel, each as the JSON text PUT took, on either backend (db/stores/responses.ts).
 * Every method is async and writes in a transaction of its own; any method rejects with the
 * database's own error.
 */
export interface ResponseStore {
  /** Every stored setting, by channel. */
  list(): Promise<{ channel: string; setting: string }[]>;
  /** Stores the channel's setting, replacing any earlier one. */
  save(channel: string, setting: string, updatedAt: number): Promise<void>;
  /** Deleting a setting that does not exist is no error. */
  remove(channel: string): Promise<void>;
}
