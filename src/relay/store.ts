import type { relayListeners } from "../schema/sqlite";

/** Who listens on a relay: the laptop (its id, host and start) and the instance holding its connection. Times in ms. */
export type RelayListener = typeof relayListeners.$inferSelect;

/** What claim() answers: the relay is this listener's now, or another holds it (named for the error). */
export type Claim = { claimed: true } | { claimed: false; holder: RelayListener };

/**
 * Storage of the relays' listeners: one per relay (key and channel) across the instances sharing
 * the database, on either backend (db/stores/relays.ts). Every write is a transaction of its own
 * and reports `{kind: "state", part: "relays"}` once committed. Any method rejects with the
 * database's own error when the database fails.
 */
export interface RelayStore {
  /**
   * Makes `who` the relay's listener when nobody holds it, when the holder is the same listener (a
   * laptop reconnecting, to this instance or another), or when the holder was last seen before
   * `staleBefore` (its instance died). Otherwise resolves to the holder, changing nothing. Of two
   * claims at once by different listeners, one wins.
   */
  claim(who: Omit<RelayListener, "seenAt">, now: number, staleBefore: number): Promise<Claim>;
  /** Notes that the holder is still connected; false when the relay is no longer this listener's on this instance. */
  touch(handler: string, listener: string, instance: string, now: number): Promise<boolean>;
  /** Lets go of the relay if this listener on this instance holds it; no error otherwise. */
  release(handler: string, listener: string, instance: string): Promise<void>;
  /** Every listener, by handler. */
  list(): Promise<RelayListener[]>;
}
