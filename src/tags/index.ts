import type { Clock } from "../lib/clock";
import { invalid } from "../lib/errors";
import type { HookService } from "../hooks/service";
import type { ReadStore, TagStore } from "./store";

import { TAG_PATTERN, TAG_RULE } from "../search/query";

export { TAG_PATTERN, TAG_RULE };
const TAG = new RegExp(TAG_PATTERN);
/** Tags one request may add or remove. */
export const MAX_TAGS = 20;

/** Throws invalid_argument unless every tag is a tag and there are 1 to MAX_TAGS of them; answers them without repeats. */
export function checkTags(tags: readonly string[], field = "tags"): string[] {
  if (tags.length === 0 || tags.length > MAX_TAGS) throw invalid(`${field}: must list 1 to ${MAX_TAGS} tags`);
  tags.forEach((tag, i) => {
    if (typeof tag !== "string" || !TAG.test(tag)) throw invalid(`${field}[${i}]: tags are ${TAG_RULE}`);
  });
  return [...new Set(tags)];
}

export type Tags = ReturnType<typeof createTags>;

/**
 * Tags of hooks and read marks, over their stores: the routes and the dashboard call `add`, `remove`
 * (one hook, answering its tags) and `markRead`; bulk actions call the store's list forms
 * (`store.addTags(ids, tags)`, `reads.markRead(user, ids)`) with their batches.
 */
export function createTags(deps: { store: TagStore; reads: ReadStore; hooks: Pick<HookService, "get">; clock: Clock }) {
  const { store, reads, hooks, clock } = deps;
  async function tagsOf(id: string): Promise<string[]> {
    return (await store.tagsOf([id])).get(id) ?? [];
  }
  return {
    store,
    reads,
    tagsOf,
    /** Adds the tags to the hook (not_found when there is none); answers its tags. */
    async add(id: string, tags: readonly string[]): Promise<{ tags: string[] }> {
      const checked = checkTags(tags);
      await hooks.get(id);
      await store.addTags([id], checked, clock.now());
      return { tags: await tagsOf(id) };
    },
    /** Removes the tags from the hook (not_found when there is none; a tag it does not carry is no error); answers its tags. */
    async remove(id: string, tags: readonly string[]): Promise<{ tags: string[] }> {
      const checked = checkTags(tags);
      await hooks.get(id);
      await store.removeTags([id], checked);
      return { tags: await tagsOf(id) };
    },
    /** Marks the hook read for the reader (a dashboard user's e-mail, or `api:<label>`); not_found when there is none. */
    async markRead(reader: string, id: string, read = true): Promise<{ read: boolean }> {
      await hooks.get(id);
      if (read) await reads.markRead(reader, [id], clock.now());
      else await reads.markUnread(reader, [id]);
      return { read };
    },
    /** Unread hooks of the reader per channel, and their total. */
    async unread(reader: string): Promise<{ total: number; channels: Record<string, number> }> {
      const by = await reads.unreadByChannel(reader);
      let total = 0;
      for (const n of by.values()) total += n;
      return { total, channels: Object.fromEntries(by) };
    },
  };
}
