import type { AnyElysia } from "elysia";
import type { ChannelService } from "../hooks/channels";
import type { BulkAction, HookService } from "../hooks/service";
import type { HookStatus } from "../hooks/store";
import { restAfter } from "../lib/pace";

/** Hooks changed per transaction: the write lock is never held for long, and catching goes on between. */
export const BULK_BATCH = 200;

export type BulkDeps = {
  /** The session gate; gives routes `actor` (the user's e-mail). */
  auth: AnyElysia;
  hooks: HookService;
  channels: ChannelService;
};

/** Counting and applying a bulk action over a filter of the hooks list (a channel or all, one status). */
export function createBulk({ hooks, channels }: BulkDeps) {
  return {
    /** How many hooks the filter holds now (from the channels' counters), and the newest one's id. */
    async count(channel: string | undefined, status: HookStatus): Promise<{ count: number; until: string | null }> {
      const all = await channels.list();
      const rows = channel ? all.filter((c) => c.name === channel) : all;
      const count = rows.reduce((n, c) => n + c.stats[status], 0);
      const until = (await hooks.listIds({ channel, status, limit: 1 }))[0] ?? null;
      return { count: until ? count : 0, until };
    },
    /**
     * Applies the action to the filter's hooks up to `until` (none caught since), newest first, a
     * batch a transaction, resting between batches as long as each took (lib/pace): the thread
     * that catches hooks keeps at least half its time. Returns how many changed.
     */
    async apply(action: BulkAction, channel: string | undefined, status: HookStatus, until: string, actor: string): Promise<number> {
      let changed = 0;
      let after: string | undefined = nextAbove(until);
      for (;;) {
        const started = performance.now();
        const ids = await hooks.listIds({ channel, status, after, limit: BULK_BATCH });
        if (ids.length === 0) return changed;
        changed += (await hooks.bulk(action, ids, actor)).length;
        after = ids[ids.length - 1];
        await restAfter(started);
      }
    },
  };
}

/**
 * A key just above `id` in sort order, so that paging `after` it starts with `id` itself: hook ids
 * all have 26 characters, so `id` followed by the lowest id character sorts after `id` and before
 * every greater id. (Not a NUL, which a PostgreSQL text value cannot hold.)
 */
function nextAbove(id: string): string {
  return `${id}0`;
}
