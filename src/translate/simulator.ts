import type { TranslateConfig } from "../config/translate";
import type { Log } from "../lib/log";
import type { Worker } from "../lib/worker";
import type { TranslateStore } from "./contract";
import { pseudoTranslate, type ResourceType } from "./resource";
import type { WorkService } from "./work";

/** The simulated translator: a worker for the runner, and `completeNow` for the admin API. */
export type Simulator = Worker & {
  /**
   * Accepts every QUEUE and REVISION order and completes every order the simulator holds, now,
   * whatever its timers say (POST /admin/v1/simulator/complete-now). Returns the completed ids.
   */
  completeNow(now: number): Promise<number[]>;
};

const BATCH = 100;

/**
 * The simulated translator: accepts QUEUE and REVISION orders `accept_after` after they got
 * there and completes the orders it holds `complete_after` after accepting them, with a
 * deterministic pseudo-translation. Its only state is the orders' `status_at`, so a restart
 * resumes where it stopped. It goes through the same work service as human translators.
 */
export function createSimulator(deps: { config: TranslateConfig["simulator"]; store: TranslateStore; work: WorkService; log: Log }): Simulator {
  const { store, work, log } = deps;
  const name = deps.config.name;
  const acceptAfter = deps.config.accept_after;
  const completeAfter = deps.config.complete_after;
  // New orders arrive without telling the runner, so look again at least this often.
  const poll = Math.min(Math.max(acceptAfter, 100), 1000);

  /** Runs `step` on each due order; a lost race (another translator was faster) is not an error. */
  async function each(rows: { id: number }[], step: (id: number) => Promise<unknown>): Promise<number[]> {
    const done: number[] = [];
    for (const row of rows) {
      try {
        await step(row.id);
        done.push(row.id);
      } catch (error) {
        log.warn("translate simulator: skipped an order", { order: row.id, error: String(error) });
      }
    }
    return done;
  }
  const complete = (now: number) => async (id: number) => {
    const order = (await store.order(id))!;
    return work.complete(name, id, pseudoTranslate(order.resourceType as ResourceType, order.sourceText, order.targetLanguage), now);
  };

  return {
    name: "translate-simulator",
    async tick(now: number): Promise<number | null> {
      const toAccept = await store.due(["QUEUE", "REVISION"], now - acceptAfter, BATCH);
      await each(toAccept, (id) => work.accept(name, id, now));
      const toComplete = await store.due(["PROGRESS"], now - completeAfter, BATCH, name);
      await each(toComplete, complete(now));
      if (toAccept.length === BATCH || toComplete.length === BATCH) return now;
      const next = [now + poll];
      const [waiting] = await store.due(["QUEUE", "REVISION"], Number.MAX_SAFE_INTEGER, 1);
      if (waiting) next.push(waiting.statusAt + acceptAfter);
      const [working] = await store.due(["PROGRESS"], Number.MAX_SAFE_INTEGER, 1, name);
      if (working) next.push(working.statusAt + completeAfter);
      return Math.min(...next);
    },
    async completeNow(now: number): Promise<number[]> {
      const completed: number[] = [];
      for (;;) {
        const open = await store.due(["QUEUE", "REVISION"], Number.MAX_SAFE_INTEGER, BATCH);
        const accepted = await each(open, (id) => work.accept(name, id, now));
        const held = await store.due(["PROGRESS"], Number.MAX_SAFE_INTEGER, BATCH, name);
        completed.push(...(await each(held, complete(now))));
        // Orders skipped (taken by a human translator meanwhile) would come back forever otherwise.
        if (accepted.length === 0 && held.length < BATCH) return completed;
      }
    },
  };
}
