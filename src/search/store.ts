import type { Transactor } from "../lib/transactor";
import type { HookStatus } from "../hooks/status";
import type { SearchDoc } from "./document";
import type { SearchTerms } from "./query";

/**
 * A search: terms (query.ts) and the list's filters. `since`/`until` are times in ms: hooks caught
 * at or after `since`, before `until` (a hook id carries the time it was caught).
 */
export type SearchQuery = {
  terms: SearchTerms;
  channel?: string;
  status?: HookStatus;
  /** The plain list's `event_type`: exact and case-sensitive, or a prefix with a trailing `*`. */
  eventType?: string;
  after?: string;
  since?: number;
  until?: number;
  limit: number;
  /** The time relative terms (`after:-1h`) count from; now when undefined. */
  now?: number;
};

/** What a count reads: a search without its page (`after`, `limit`). */
export type CountQuery = Omit<SearchQuery, "after" | "limit">;

/**
 * The search index's storage, met by SQLite (FTS5, trigram) and PostgreSQL (pg_trgm): written after
 * hooks commit, never inside a caught batch. Rejects with the database's error when it fails.
 */
export interface SearchStore extends Transactor {
  /**
   * Indexes these hooks; one already indexed is skipped. A hook deleted meanwhile is skipped
   * (PostgreSQL) or leaves an entry that matches nothing until the purge removes it (SQLite).
   */
  index(docs: readonly SearchDoc[]): Promise<void>;
  /**
   * Of the next `scan` hooks by id above `after` (from the first when undefined), those not indexed
   * yet, and the last id looked at (undefined when there was none: the end).
   */
  unindexed(after: string | undefined, scan: number): Promise<{ ids: string[]; last?: string }>;
  /** Ids of the matching hooks, newest first, after `after`, at most `limit`. */
  search(query: SearchQuery): Promise<string[]>;
  /**
   * How many hooks the search matches (every page of `search` together), counted up to `max + 1`:
   * an answer above `max` says "more than max". In the database where every term is a hook column
   * (one COUNT statement); with words, over candidates narrowed by the cheapest filter first.
   */
  count(query: CountQuery, max: number): Promise<number>;
  /** Bytes the index takes on disk, when the database can tell, else undefined. */
  sizeBytes(): Promise<number | undefined>;
  /**
   * Removes the entries of deleted hooks among the next `scan` entries above `after` (SQLite: its
   * index is a file of its own, no trigger reaches it); the last entry looked at, undefined at the end.
   * PostgreSQL deletes them with their hooks and has none.
   */
  purge?(after: number | undefined, scan: number): Promise<number | undefined>;
  /**
   * SQLite: whether the vocabulary (the words and senders' addresses written once each for `ip:`
   * and partial words) is due a prune, by the hooks purged since the last (db/sqlite/search-vocabulary.ts).
   */
  pruneDue?(): Promise<boolean>;
  /**
   * SQLite: removes, among the next `scan` words or addresses after `after` (from the first when
   * undefined), those no indexed hook holds any longer; the cursor to go on from, undefined at the end.
   */
  prune?(after: string | undefined, scan: number): Promise<string | undefined>;
}
