import { MAX_TAGS, TAG_PATTERN, TAG_RULE } from "../config/tags";
import type { HookMatcher } from "../config/checks";
import type { CaughtRow } from "../hooks/changes";
import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import { invalid } from "../lib/errors";
import type { HookService } from "../hooks/service";
import type { ReadStore, TagStore } from "./store";

export { MAX_TAGS, TAG_PATTERN, TAG_RULE };
const TAG = new RegExp(TAG_PATTERN);

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
export function createTags(deps: {
  store: TagStore;
  reads: ReadStore;
  hooks: Pick<HookService, "get">;
  clock: Clock;
  /** Each channel's count of hooks (the channel counters: no hook is read to count them). */
  channelCounts: () => Promise<Map<string, number>>;
}) {
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
      const [counts, read] = await Promise.all([deps.channelCounts(), reads.readByChannel(reader)]);
      const by: [string, number][] = [];
      let total = 0;
      for (const [channel, n] of counts) {
        const unread = Math.max(0, n - (read.get(channel) ?? 0));
        if (unread > 0) by.push([channel, unread]), (total += unread);
      }
      return { total, channels: Object.fromEntries(by) };
    },
  };
}

/** Caught batches waiting for the rules at most; past that a batch is left untagged (and counted). */
const MAX_PENDING_BATCHES = 64;

/**
 * `[[tag_rules]]` applied to hooks as they are caught: fed with this instance's caught batches
 * (compose/changes.ts) after the sender was answered, one batch after another, off the catching
 * path; each rule's query is matched in memory as a handler's `when` (search/query.ts), and the
 * tags of every rule a hook matches are added in one statement per tag for the whole batch.
 */
export function createTagRules(deps: {
  rules: readonly { query: string; tags: readonly string[]; match: HookMatcher }[];
  store: TagStore;
  clock: Clock;
  log: Pick<Log, "error">;
}) {
  const { rules, store, clock, log } = deps;
  let queue = Promise.resolve();
  let pending = 0;
  let skipped = 0;
  const idle: (() => void)[] = [];
  async function apply(hooks: readonly CaughtRow[]): Promise<void> {
    const byTag = new Map<string, string[]>();
    for (const h of hooks) {
      const hook = { ...h, headers: JSON.parse(h.headers) as Record<string, string> };
      for (const rule of rules) {
        if (!(await rule.match.matches(hook))) continue;
        for (const tag of rule.tags) {
          const ids = byTag.get(tag);
          if (ids) ids.push(h.id);
          else byTag.set(tag, [h.id]);
        }
      }
    }
    const at = clock.now();
    for (const [tag, ids] of byTag) await store.addTags([...new Set(ids)], [tag], at);
  }
  return {
    /** Queues a caught batch for the rules; returns at once. */
    caught(hooks: readonly CaughtRow[]): void {
      if (rules.length === 0) return;
      if (pending >= MAX_PENDING_BATCHES) {
        skipped += hooks.length;
        return;
      }
      pending++;
      queue = queue
        .then(() => apply(hooks))
        .catch((e) => log.error(`tag rules: ${e instanceof Error ? e.message : String(e)}`))
        .finally(() => {
          if (--pending === 0) for (const f of idle.splice(0)) f();
        });
    },
    /** Hooks left untagged because too many batches were waiting. */
    skipped: () => skipped,
    /** Resolves once every batch queued so far is tagged (tests, shutdown). */
    settled(): Promise<void> {
      return pending === 0 ? Promise.resolve() : new Promise((r) => idle.push(r));
    },
  };
}

export type TagRules = ReturnType<typeof createTagRules>;
