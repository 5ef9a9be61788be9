/**
 * How one instance tells the others sharing its database that something they keep in memory
 * changed (a channel paused, a guard or a custom response set, an API key revoked), and that hooks
 * were caught or changed (their live streams and runners). SQLite has one process per data file,
 * so its feed goes nowhere; PostgreSQL's is LISTEN/NOTIFY (db/pg/feed.ts).
 */
export interface ChangeFeed {
  /** This instance's id (a change it published comes back to nobody, itself included). */
  readonly instance: string;
  /**
   * Tells the other instances that `topic` changed for `key` (a channel name, hook ids...), once
   * the change committed. Never throws: a failed publish is logged, and the others resync when
   * their connection comes back.
   */
  publish(topic: string, key?: string): void;
  /**
   * Calls fn for each change another instance published, and with topic `null` when changes may
   * have been missed (the connection to the database was lost and is back): then re-read everything.
   */
  subscribe(fn: (topic: string | null, key: string) => void): void;
  close(): Promise<void>;
}

/** The feed of a backend with one process per database: publishing reaches nobody. */
export function localFeed(instance = "local"): ChangeFeed {
  return { instance, publish() {}, subscribe() {}, close: async () => {} };
}
