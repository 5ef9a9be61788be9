import type { CaughtRow } from "../hooks/changes";
import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import { type ContractChecker, fieldPaths, type Verdict } from "./check";
import type { ContractRecord, ContractStore } from "./store";

export { createContractChecker, type ChannelSchemas, type ContractResult, CONTRACT_RESULTS, schemaApplies } from "./check";
export type { ContractRecord, ContractStore } from "./store";

/** Batches waiting beyond this are not checked (their hooks keep no result): a burst never holds unbounded bodies in memory. */
export const MAX_PENDING_BATCHES = 1000;

/** Seen (channel, event type, path) triples kept in memory before asking the database; past this the set starts again. */
const SEEN_CACHE_MAX = 200_000;

/**
 * Follows caught batches (compose/changes.ts) after the sender was answered: checks each hook
 * (check.ts), marks the first of an event type and the first with a new field path on its channel
 * (the database decides among racing instances), keeps the result and counts it. Batches are
 * checked one after another in the order caught; a failure is logged and never reaches catching.
 */
export function createContracts(deps: {
  store: ContractStore;
  checker: ContractChecker;
  clock: Pick<Clock, "now">;
  log: Pick<Log, "error">;
  counted?: (channel: string, result: string) => void;
  /** Told the checks kept, once written (the stream sends their hooks again, now with `contract`). */
  recorded?: (rows: readonly ContractRecord[]) => void;
}) {
  const { store, checker, clock, log } = deps;
  // Per channel and event type, the field paths known seen ("" is the event type itself).
  const seen = new Map<string, Set<string>>();
  let seenSize = 0;
  let queue: Promise<void> = Promise.resolve();
  let pending = 0;
  let skipped = 0;
  const idle: (() => void)[] = [];

  async function claim(channel: string, eventType: string, paths: string[], hookId: string): Promise<string[]> {
    const key = `${channel}\n${eventType}`;
    let known = seen.get(key);
    const fresh = known ? paths.filter((p) => !known!.has(p)) : paths;
    if (fresh.length === 0) return [];
    const won = await store.claimSeen(channel, eventType, fresh, hookId);
    if (seenSize > SEEN_CACHE_MAX) seen.clear(), (seenSize = 0), (known = undefined);
    if (!known) seen.set(key, (known = new Set()));
    for (const p of fresh) known.add(p);
    seenSize += fresh.length;
    return won;
  }

  async function checkBatch(hooks: readonly CaughtRow[]): Promise<void> {
    const records: ContractRecord[] = [];
    for (const h of hooks) {
      const body = parseBody(h.body);
      // Only the headers that name a provider with schemas matter: most hooks have none of them.
      let headers: Record<string, string> = {};
      if (h.headers.includes('"x-github-event"') || h.headers.includes('"webhook-id"')) {
        try {
          headers = JSON.parse(h.headers) as Record<string, string>;
        } catch {}
      }
      const verdict: Verdict = checker.check({ channel: h.channel, eventType: h.eventType, headers, body });
      const paths = body === undefined ? [] : fieldPaths(body);
      const won = await claim(h.channel, h.eventType, ["", ...paths], h.id);
      // A hook without an event type is of no type: never marked new-type (a binary body, a form post).
      const newType = h.eventType !== "" && won.includes("");
      records.push({
        hookId: h.id,
        channel: h.channel,
        result: verdict.result,
        violations: verdict.violations,
        newType,
        // The first hook of a type brings every field: it is marked new-type, not new-field.
        newField: !won.includes("") && won.length > 0,
        checkedAt: clock.now(),
      });
      deps.counted?.(h.channel, verdict.result);
    }
    // A `none` with no mark is not kept: it is implied when read (wire.ts), and writing a row per
    // hook of every channel without schemas cost catching about 6 µs a hook (issue 29).
    const kept = records.filter((r) => r.result !== "none" || r.newType || r.newField);
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

const decoder = new TextDecoder();

/** The body as JSON, or undefined when it is not JSON (an object or array). */
function parseBody(body: Uint8Array): unknown {
  let i = 0;
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x0a || body[i] === 0x0d || body[i] === 0x09)) i++;
  if (body[i] !== 0x7b && body[i] !== 0x5b) return undefined;
  try {
    return JSON.parse(decoder.decode(body));
  } catch {
    return undefined;
  }
}
