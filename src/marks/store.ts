/** The kinds of mark a hook can carry (hook_marks): `refusal`, its delivery was refused before it was caught. */
export type MarkKind = "refusal";

/**
 * Storage of what is found about a hook after it was caught (hook_marks), and the look-up among the
 * kept refusals that finds it, on either backend (db/stores/marks.ts). Every method is async and
 * rejects with the database's own error (nothing is then changed).
 */
export interface MarkStore {
  /** In a statement of its own: marks those of `ids` that exist with `kind` at `at` (a mark kept stays); resolves to how many were new. */
  mark(ids: readonly string[], kind: MarkKind, at: number): Promise<number>;
  /** Those of `ids` carrying the mark `kind`. */
  marked(ids: readonly string[], kind: MarkKind): Promise<Set<string>>;
  /** Those of `deliveryIds` (namespaced as dedup/ makes them) found among the channel's kept refusals (kind `refused`). */
  refusedDeliveries(channel: string, deliveryIds: readonly string[]): Promise<Set<string>>;
  /** The channels with a kept refusal carrying a delivery id made at or after `since`, each with its newest one's time. */
  refusedChannels(since: number): Promise<Map<string, number>>;
}
