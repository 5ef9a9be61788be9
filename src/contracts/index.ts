import type { CaughtRow } from "../hooks/changes";
import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import { type Analyse, type AnalyseInput, createAnalyse, createTriage } from "./analyse";
import type { ContractChecker } from "./check";
import type { ContractRecord, ContractStore } from "./store";

export { type Analyse, type Analysed, type AnalyseInput, createAnalyse } from "./analyse";
export { createContractChecker, type ChannelSchemas, type ContractResult, CONTRACT_RESULTS, schemaApplies } from "./check";
export type { ContractRecord, ContractStore } from "./store";

/**
 * Bodies held in memory for the checks' analysis, at most: past that, the hooks that need one wait
 * as ids only (a backlog, about 50 bytes a hook), read back from the hook store once the analysis
 * caught up. Every hook is checked; under a flood its result comes later.
 */
export const MAX_WAITING_BYTES = 8 * 1024 * 1024;
/** Hooks handed to one analysis, at most (one message to the checks' thread). */
const ANALYSE_BATCH = 256;

/** What a waiting hook is counted as holding: its body, its headers and the rest of its row. */
const heldBytes = (h: AnalyseInput) => h.body.byteLength + h.headers.length + 256;

/**
 * Follows caught batches (compose/changes.ts) after the sender was answered: checks each hook
 * (check.ts, through `analyse`: on a thread of its own in the executable, contracts/threaded.ts),
 * marks the first of an event type and the first with a new field path on its channel (the
 * database decides among racing instances), keeps the result and counts it. A failure is logged
 * and never reaches catching.
 *
 * On the calling thread, a hook no schema applies to whose field paths are all known is answered at
 * once (`none`, nothing kept: createTriage); the others wait for the analysis, one batch after
 * another in the order caught. While more than `maxWaitingBytes` of them wait (the checks' thread,
 * at the lowest priority, gets no CPU while catching takes it all), the next ones wait as ids and
 * their bodies are read back (`read`) when their turn comes: memory stays bounded, no hook is left
 * unchecked, and the order (hence which hook gets a mark) is the same.
 */
export function createContracts(deps: {
  store: ContractStore;
  checker: ContractChecker;
  /** Where the CPU side runs; the checker on this thread when absent. */
  analyse?: Analyse;
  /** The hooks of these ids as stored (a hook deleted meanwhile is missing), for the backlog. */
  read: (ids: readonly string[]) => Promise<AnalyseInput[]>;
  /** MAX_WAITING_BYTES (tests make it small). */
  maxWaitingBytes?: number;
  clock: Pick<Clock, "now">;
  log: Pick<Log, "error">;
  /** Hooks checked: `n` of one channel with one result. */
  counted?: (channel: string, result: string, n: number) => void;
  /** Told the checks kept, once written (the stream sends their hooks again, now with `contract`). */
  recorded?: (rows: readonly ContractRecord[]) => void;
  /** Stops where `analyse` runs (the checks' thread), at close(). */
  stop?: () => void;
}) {
  const { store, clock } = deps;
  const log = deps.log;
  const analyse = deps.analyse ?? createAnalyse(deps.checker);
  const triage = createTriage(deps.checker);
  const maxWaitingBytes = deps.maxWaitingBytes ?? MAX_WAITING_BYTES;
  /** Hooks waiting for the analysis with their bodies, in catch order, and the bytes they hold. */
  let waiting: AnalyseInput[] = [];
  let waitingBytes = 0;
  /** Ids of hooks waiting after those (in catch order, by caught batch), their bodies left in the store. */
  const backlog: string[][] = [];
  let backlogSize = 0;
  let pumping = false;
  const idle: (() => void)[] = [];

  /** Counts hooks by runs of one channel and result (most batches are one run): a counter's key made per hook cost catching 0.3 µs a hook. */
  function counter() {
    let runChannel = "";
    let runResult = "";
    let run = 0;
    return {
      add(channel: string, result: string) {
        if (channel !== runChannel || result !== runResult) {
          if (run > 0) deps.counted?.(runChannel, runResult, run);
          (runChannel = channel), (runResult = result), (run = 0);
        }
        run++;
      },
      end: () => void (run > 0 && deps.counted?.(runChannel, runResult, run)),
    };
  }

  async function checkBatch(hooks: readonly AnalyseInput[]): Promise<void> {
    // Handed over as they are (the thread's hand-off copies what it reads).
    const analysed = await analyse(hooks);
    const kept: ContractRecord[] = [];
    const count = counter();
    for (let i = 0; i < hooks.length; i++) {
      const h = hooks[i]!;
      const a = analysed[i]!;
      count.add(h.channel, a.result);
      // A `none` with no mark is not kept: it is implied when read (wire.ts), and writing a row per
      // hook of every channel without schemas cost catching about 6 µs a hook (issue 29).
      if (a.fresh.length === 0 && a.result === "none") continue;
      triage.learn(h.channel, h.eventType, a.fresh);
      const won = a.fresh.length === 0 ? [] : await store.claimSeen(h.channel, h.eventType, a.fresh, h.id);
      // A hook without an event type is of no type: never marked new-type (a binary body, a form post).
      const newType = h.eventType !== "" && won.includes("");
      // The first hook of a type brings every field: it is marked new-type, not new-field.
      const newField = !won.includes("") && won.length > 0;
      if (a.result === "none" && !newType && !newField) continue;
      kept.push({ hookId: h.id, channel: h.channel, result: a.result, violations: a.violations, newType, newField, checkedAt: clock.now() });
    }
    count.end();
    await store.record(kept);
    if (kept.length > 0) deps.recorded?.(kept);
  }

  /** The next batch to analyse: waiting bodies first (older), then the backlog's, read back. */
  async function next(): Promise<{ hooks: AnalyseInput[]; bytes: number } | undefined> {
    if (waiting.length > 0) {
      const hooks = waiting.length <= ANALYSE_BATCH ? waiting : waiting.slice(0, ANALYSE_BATCH);
      waiting = hooks === waiting ? [] : waiting.slice(ANALYSE_BATCH);
      let bytes = 0;
      for (const h of hooks) bytes += heldBytes(h);
      return { hooks, bytes };
    }
    if (backlogSize === 0) return undefined;
    const ids: string[] = [];
    while (ids.length < ANALYSE_BATCH && backlog.length > 0) {
      const first = backlog[0]!;
      const take = Math.min(first.length, ANALYSE_BATCH - ids.length);
      for (let i = 0; i < take; i++) ids.push(first[i]!);
      if (take === first.length) backlog.shift();
      else backlog[0] = first.slice(take);
    }
    backlogSize -= ids.length;
    const byId = new Map((await deps.read(ids)).map((h) => [h.id, h]));
    const hooks: AnalyseInput[] = [];
    for (const id of ids) {
      const h = byId.get(id);
      if (h) hooks.push(h);
    }
    return { hooks, bytes: 0 };
  }

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      for (;;) {
        let batch: Awaited<ReturnType<typeof next>> | undefined;
        try {
          batch = await next();
          if (!batch) break;
          await checkBatch(batch.hooks);
        } catch (e) {
          log.error(`contract checks: ${e instanceof Error ? e.message : String(e)}`);
        } finally {
          if (batch) waitingBytes -= batch.bytes;
        }
      }
    } finally {
      pumping = false;
      for (const f of idle.splice(0)) f();
    }
  }

  return {
    /** Takes a caught batch of this instance for checking; returns at once. */
    caught(hooks: readonly CaughtRow[]): void {
      const count = counter();
      let need: AnalyseInput[] | undefined;
      let bytes = 0;
      for (const h of hooks) {
        if (triage.quick(h)) count.add(h.channel, "none");
        else (need ??= []).push(h), (bytes += heldBytes(h));
      }
      count.end();
      if (!need) return;
      // Once hooks wait as ids, the later ones do too until they are read back: the catch order holds.
      if (backlogSize > 0 || waitingBytes + bytes > maxWaitingBytes) {
        backlog.push(need.map((h) => h.id));
        backlogSize += need.length;
      } else {
        for (const h of need) waiting.push(h);
        waitingBytes += bytes;
      }
      void pump();
    },
    /** Hooks waiting for their check, and of those, how many wait as ids only. */
    waiting: () => ({ hooks: waiting.length + backlogSize, asIds: backlogSize, bytes: waitingBytes }),
    /** Stops the checks' thread; hooks still waiting keep no result. */
    close: () => deps.stop?.(),
    /** Resolves once every hook taken so far is checked and kept (tests, benches, shutdown). */
    settled(): Promise<void> {
      return !pumping ? Promise.resolve() : new Promise((r) => idle.push(r));
    },
  };
}

export type Contracts = ReturnType<typeof createContracts>;
