/**
 * Storage of hooks' tags and of which hooks each dashboard user has read, on either backend
 * (db/stores/tags.ts). Every method is async; a write is one statement per tag (atomic by itself),
 * safe against the same tags added or removed at once elsewhere (a tag is on a hook once, whoever
 * wins). Hooks that do not exist (or were deleted meanwhile) are skipped, never an error. The bulk
 * actions call the list forms (`addTags(ids, tags)`, `markRead(user, ids)`) with batches of ids.
 */
export interface TagStore {
  /** Puts each tag on each hook that exists; resolves to how many (hook, tag) pairs were new. */
  addTags(ids: readonly string[], tags: readonly string[], at: number): Promise<number>;
  /** Takes each tag off each hook; resolves to how many (hook, tag) pairs were removed. */
  removeTags(ids: readonly string[], tags: readonly string[]): Promise<number>;
  /** The tags of each of the hooks, sorted; a hook without tags is absent from the map. */
  tagsOf(ids: readonly string[]): Promise<Map<string, string[]>>;
  /**
   * Every tag in use, with how many hooks carry it, by tag; with `channels` (names), counting only
   * the hooks of those channels (a caller limited to channels: db/caller-filter.ts).
   */
  counts(channels?: readonly string[]): Promise<{ tag: string; count: number }[]>;
  /** The ids of the hooks carrying `tag` (for `tag:` in a query). */
  idsWith(tag: string): Promise<string[]>;
}

/** Which hooks each dashboard user (by e-mail) has opened: a hook is unread for a user until then. */
export interface ReadStore {
  /** Marks the hooks that exist read for the user; resolves to how many were unread. */
  markRead(user: string, ids: readonly string[], at: number): Promise<number>;
  /** Marks the hooks unread again for the user; resolves to how many were read. */
  markUnread(user: string, ids: readonly string[]): Promise<number>;
  /** The ids among `ids` the user has read. */
  readOf(user: string, ids: readonly string[]): Promise<Set<string>>;
  /** How many hooks are unread for the user, per channel (channels with none unread left out). */
  /** How many hooks of each channel the user has read (hooks deleted since are not counted). */
  readByChannel(user: string): Promise<Map<string, number>>;
}
