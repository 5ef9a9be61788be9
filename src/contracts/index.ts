import type { CaughtRow } from "../hooks/changes";
import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import { type Analyse, createAnalyse } from "./analyse";
import type { ContractChecker } from "./check";
import type { ContractRecord, ContractStore } from "./store";

export { type Analyse, type Analysed, type AnalyseInput, createAnalyse } from "./analyse";
export { createContractChecker, type ChannelSchemas, type ContractResult, CONTRACT_RESULTS, schemaApplies } from "./check";
export type { ContractRecord, ContractStore } from "./store";

/** Batches waiting beyond this are not checked (their hooks keep no result): a burst never holds unbounded bodies in memory. */
export const MAX_PENDING_BATCHES = 1000;

/**
 * Follows caught batches (compose/changes.ts) after the sender was answered: checks each hook
 * (check.ts, through `analyse`: on a thread of its own in the executable, contracts/threaded.ts),
 * marks the first of an event type and the first with a new field path on its channel (the
 * database decides among racing instances), keeps the result and counts it. Batches are checked
 * one after another in the order caught; a failure is logged and never reaches catching.
 */
export function createContracts(deps: {
  store: ContractStore;
  checker: ContractChecker;
  /** Where the CPU side runs; the checker on this thread when absent. */
  analyse?: Analyse;
  clock: Pick<Clock, "now">;
  log: Pick<Log, "error">;
  /** Hooks checked: `n` of one channel with one result. */
  counted?: (channel: string, result: string, n: number) => void;
  /** Told the checks kept, once written (the stream sends their hooks again, now with `contract`). */
  recorded?: (rows: readonly ContractRecord[]) => void;
}) {
  const { store, clock } = deps;
  const log = deps.log;
  const analyse = deps.analyse ?? createAnalyse(deps.checker);
  let queue: Promise<void> = Promise.resolve();
  let pending = 0;
  let skipped = 0;
  const idle: (() => void)[] = [];

  async function checkBatch(hooks: readonly CaughtRow[]): Promise<void> {
    // A caught row is an AnalyseInput: handed over as it is (the thread's hand-off copies what it reads).
    const analysed = await analyse(hooks);
    const kept: ContractRecord[] = [];
    // Counted by runs of one channel and result (most batches are one run): a counter's key made per hook cost catching 0.3 µs a hook.
    let runChannel = "";
    let runResult = "";
    let run = 0;
    for (let i = 0; i < hooks.length; i++) {
      const h = hooks[i]!;
      const a = analysed[i]!;
      if (h.channel !== runChannel || a.result !== runResult) {
        if (run > 0) deps.counted?.(runChannel, runResult, run);
        (runChannel = h.channel), (runResult = a.result), (run = 0);
      }
      run++;
      // A `none` with no mark is not kept: it is implied when read (wire.ts), and writing a row per
      // hook of every channel without schemas cost catching about 6 µs a hook (issue 29).
      if (a.fresh.length === 0 && a.result === "none") continue;
      const won = a.fresh.length === 0 ? [] : await store.claimSeen(h.channel, h.eventType, a.fresh, h.id);
      // A hook without an event type is of no type: never marked new-type (a binary body, a form post).
      const newType = h.eventType !== "" && won.includes("");
      // The first hook of a type brings every field: it is marked new-type, not new-field.
      const newField = !won.includes("") && won.length > 0;
      if (a.result === "none" && !newType && !newField) continue;
      kept.push({ hookId: h.id, channel: h.channel, result: a.result, violations: a.violations, newType, newField, checkedAt: clock.now() });
    }
    if (run > 0) deps.counted?.(runChannel, runResult, run);
    await store.record(kept);
    if (kept.length > 0) deps.recorded?.(kept);
  }

  return {
    /** Queues a caught batch of this instance for checking; returns at once. */
    caught(hooks: readonly CaughtRow[]): void {
      if (pending >= MAX_PENDING_BATCHES) {
        skipped += hooks.length;
        return;
      }
      pending++;
      queue = queue
        .then(() => checkBatch(hooks))
        .catch((e) => log.error(`contract checks: ${e instanceof Error ? e.message : String(e)}`))
        .finally(() => {
          if (--pending === 0) for (const f of idle.splice(0)) f();
        });
    },
    /** Hooks left unchecked because too many batches were waiting. */
    skipped: () => skipped,
    /** Resolves once every batch queued so far is checked and kept (tests, benches, shutdown). */
    settled(): Promise<void> {
      return pending === 0 ? Promise.resolve() : new Promise((r) => idle.push(r));
    },
  };
}

export type Contracts = ReturnType<typeof createContracts>;
