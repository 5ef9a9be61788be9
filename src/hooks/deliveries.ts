/**
 * What catching needs of deduplication by delivery id: declared here so that hooks/ never imports
 * dedup/ (dedup/index.ts createDedup fills it, and the composition hands it in).
 */

/** The first hook of a delivery (a repeat, answered with its id), or a claim the caller settles. */
export type DeliveryClaim = { first: string } | { settle(id: string | undefined): void };

export interface DeliveryDedup {
  /** The delivery id of a request to a deduplicating channel, namespaced; undefined when none. */
  keyOf(channel: string, headers: Headers, body: Uint8Array): string | undefined;
  /**
   * Either the first hook of this delivery (a repeat within the window), or a claim whose settle()
   * the caller calls with the stored hook's id once its batch committed (undefined if storing
   * failed). Rejects with the database's error.
   */
  claim(channel: string, key: string): Promise<DeliveryClaim>;
}
