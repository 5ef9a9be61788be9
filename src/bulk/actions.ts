import type { HookService } from "../hooks/service";
import type { HookStatus } from "../hooks/status";
import { AppError } from "../lib/errors";
import { replay, type ReplayOutbound } from "../transfer/replay";
import type { ReadStore, TagStore } from "../tags/store";
import type { BulkCounts } from "./store";

/**
 * What an action is given: the hooks' service, who acts, its own fields (`params`), how a replay
 * goes out, the tags and read marks (tags/), and `within`: for an action whose batch is one
 * transaction (retry, discard), called in it with the batch's counts, so that the job's progress
 * commits with the hooks it counts.
 */
export type ActionContext = {
  hooks: HookService;
  actor: string;
  params: Record<string, unknown>;
  outbound: ReplayOutbound;
  tags: Pick<TagStore, "addTags" | "removeTags">;
  reads: Pick<ReadStore, "markRead">;
  now: number;
  within?: (got: BulkCounts) => Promise<void>;
  /** For an action whose batch is one transaction: called once it committed, before the wait for the disk. */
  committed?: () => void;
};

/**
 * One bulk action: the statuses it applies to (the snapshot takes only hooks in them, so that a dry
 * run counts what would be touched; undefined: any), whether only admins and full API keys may run
 * it, and how it acts on a batch of ids. A hook gone, or moved meanwhile to a status the action
 * does not apply to, is skipped.
 *
 * Tag and untag take `params.tags` (checked by the route); mark read marks for the job's actor
 * (a dashboard user's e-mail, `api:<label>`), as the single-hook route does. A hook that had the
 * tags (or the mark) already counts as skipped.
 */
export type BulkActionSpec = {
  from?: readonly HookStatus[];
  adminOnly?: boolean;
  run(ids: readonly string[], ctx: ActionContext): Promise<BulkCounts>;
};

const counts = (done: number, of: number, failed = 0): BulkCounts => ({ done, skipped: of - done - failed, failed });

const tagsOf = (params: Record<string, unknown>) => params.tags as string[];
/** Hooks changed, from (hook, tag) pairs changed: exact when each hook changed by all the tags or none. */
const hooksOf = (pairs: number, ids: readonly string[], params: Record<string, unknown>) => Math.min(ids.length, Math.ceil(pairs / tagsOf(params).length));

/** Runs `each` per id; an AppError (not_found, failed_precondition) skips the hook. */
async function oneByOne(ids: readonly string[], each: (id: string) => Promise<"done" | "failed">): Promise<BulkCounts> {
  let done = 0;
  let failed = 0;
  for (const id of ids) {
    try {
      if ((await each(id)) === "done") done++;
      else failed++;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  return counts(done, ids.length, failed);
}

/** A transition of the batch's hooks in one transaction (HookService.bulk), `within` in it. */
async function moved(action: "retry" | "discard", ids: readonly string[], { hooks, actor, within, committed }: ActionContext): Promise<BulkCounts> {
  const n = (await hooks.bulk(action, ids, actor, within && ((done) => within(counts(done, ids.length))), committed)).length;
  return counts(n, ids.length);
}

export const BULK_ACTIONS = {
  retry: { from: ["failed", "discarded"], run: (ids, ctx) => moved("retry", ids, ctx) },
  discard: { from: ["pending", "failed"], run: (ids, ctx) => moved("discard", ids, ctx) },
  redeliver: { run: (ids, { hooks, actor }) => oneByOne(ids, async (id) => (await hooks.redeliver(id, actor), "done")) },
  delete: { run: (ids, { hooks }) => oneByOne(ids, async (id) => (await hooks.delete(id), "done")) },
  // Answered as JSON lines by the route itself (routes.ts); never run as a job.
  export: { run: async (ids) => counts(0, ids.length) },
  send: {
    adminOnly: true,
    run: (ids, { hooks, params, outbound }) =>
      oneByOne(ids, async (id) => {
        const hook = await hooks.raw(id);
        if (!hook) throw new AppError("not_found", "gone");
        const answer = await replay(hook, { url: params.url as string }, outbound);
        return "status" in answer && answer.status < 400 ? "done" : "failed";
      }),
  },
  tag: { run: async (ids, { tags, params, now }) => counts(hooksOf(await tags.addTags(ids, tagsOf(params), now), ids, params), ids.length) },
  untag: { run: async (ids, { tags, params }) => counts(hooksOf(await tags.removeTags(ids, tagsOf(params)), ids, params), ids.length) },
  "mark-read": { run: async (ids, { reads, actor, now }) => counts(await reads.markRead(actor, ids, now), ids.length) },
} satisfies Record<string, BulkActionSpec>;

/** The actions whose `params` carry `tags`. */
export const TAGGING: readonly string[] = ["tag", "untag"];

export type BulkActionName = keyof typeof BULK_ACTIONS;
export const BULK_ACTION_NAMES = Object.keys(BULK_ACTIONS) as BulkActionName[];
