import type { Config } from "../config/schema";
import type { Log } from "../lib/log";
import { ulidFloor } from "../lib/ids";
import { restAfter } from "../lib/pace";
import type { Worker } from "../lib/worker";
import type { HookKey, HookStore } from "./store";

/** Hooks deleted per transaction: short enough that the catching endpoint never waits long for the lock. */
export const RETENTION_BATCH = 500;
/** Batches per tick before handing the loop back to the runner (it calls again at once). */
const BATCHES_PER_TICK = 20;
/** How often the store is checked when the last check found nothing (more) to delete. */
export const RETENTION_CHECK_MS = 10_000;

/**
 * The cleanup behind `[hooks] retention` and `max_hooks_per_channel`: deletes hooks older than the
 * retention, and each channel's oldest hooks beyond the maximum, in transactions of RETENTION_BATCH
 * hooks, resting between them as long as each took (lib/pace.ts). Each batch decrements its
 * channels' counters by the deleted hooks' statuses; their events and attempts go with them
 * (foreign key cascade).
 *
 * A check that finds nothing costs one index seek and one read of the channels table, and runs at
 * most every RETENTION_CHECK_MS even though the runner wakes workers after every committed batch.
 */
export function createRetention(deps: {
  config: Config;
  store: HookStore;
  log: Log;
  /** Tests shrink these to see batching and yielding with few hooks. */
  batchSize?: number;
  batchesPerTick?: number;
}): Worker {
  const { config, store, log } = deps;
  const batchSize = deps.batchSize ?? RETENTION_BATCH;
  const batchesPerTick = deps.batchesPerTick ?? BATCHES_PER_TICK;
  const maxAge = config.hooks.retention;
  const maxPerChannel = config.hooks.max_hooks_per_channel;
  let nextCheck = 0;

  /** A hook id is a ULID that starts with its catch time: "caught before cutoff" is "id below its ULID". */
  const tooOld = (cutoff: number) => store.keysBelow(ulidFloor(cutoff), batchSize);

  /** Oldest first, merged from the channel's ranges of the (channel, status, id) index. */
  const oldestOf = (channel: string, n: number) => store.oldestKeys(channel, Math.min(n, batchSize));

  /** One transaction; selecting inside it means a hook changed meanwhile is counted by its current status. */
  const deleteBatch = (select: () => Promise<HookKey[]>): Promise<number> => store.transaction(async () => store.deleteHooks(await select()));

  /** Deletes at most `budget` batches; returns how many hooks, and whether work remains. */
  async function sweep(now: number, budget: number): Promise<{ deleted: number; more: boolean }> {
    let deleted = 0;
    let batches = 0;
    let startedAt = 0;
    const run = async (select: () => Promise<HookKey[]>): Promise<boolean> => {
      for (;;) {
        if (batches === budget) return true;
        if (batches > 0) await restAfter(startedAt);
        startedAt = performance.now();
        const n = await deleteBatch(select);
        batches++;
        deleted += n;
        if (n < batchSize) return false;
      }
    };
    if (maxAge !== undefined && (await run(() => tooOld(now - maxAge)))) return { deleted, more: true };
    if (maxPerChannel !== undefined) {
      for (const { name, over } of await store.overfull(maxPerChannel)) {
        let left = over;
        const more = await run(async () => {
          const victims = await oldestOf(name, left);
          left -= victims.length;
          return victims;
        });
        if (more) return { deleted, more: true };
      }
    }
    return { deleted, more: false };
  }

  return {
    name: "retention",
    async tick(now) {
      if (maxAge === undefined && maxPerChannel === undefined) return null;
      if (now < nextCheck) return nextCheck;
      const { deleted, more } = await sweep(now, batchesPerTick);
      if (deleted > 0) log.info("retention deleted hooks", { deleted, more });
      nextCheck = more ? now : now + RETENTION_CHECK_MS;
      return nextCheck;
    },
  };
}
