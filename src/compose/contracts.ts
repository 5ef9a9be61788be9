import { createContractChecker, createContracts } from "../contracts";
import { startAnalyseThread } from "../contracts/threaded";
import type { Base } from "./base";

/**
 * Contract checks of caught hooks (contracts/), fed by compose/changes.ts with this instance's
 * caught batches. `threadUrl` (the executable's contracts/thread.ts): the checks' CPU work runs
 * there, off the serving thread; on this thread without it (tests in process).
 */
export function createContractService({ storage, clock, log, metrics, config }: Base, threadUrl?: string, maxWaitingBytes?: number) {
  if (!config.contracts.enabled) return undefined;
  const own = config.channelSchemas ?? {};
  const checker = createContractChecker((channel) => own[channel]);
  const thread = threadUrl ? startAnalyseThread({ url: threadUrl, schemas: own, checker, log }) : undefined;
  const contracts = createContracts({
    store: storage.contracts,
    checker,
    ...(thread ? { analyse: thread.analyse, stop: thread.close } : {}),
    // The backlog's hooks read back (their headers as caught rows carry them: JSON).
    read: async (ids) =>
      (await storage.hooks.getHooks(ids)).map((h) => ({
        id: h.id,
        channel: h.channel,
        eventType: h.eventType,
        headers: JSON.stringify(h.headers),
        body: h.body,
      })),
    maxWaitingBytes,
    clock,
    log,
    counted: (channel, result, n) => metrics.contractChecked(channel, result, n),
    // A hook's event again on the stream, now with its `contract` (a `none` that marks nothing is implied at once: not sent again).
    recorded: (rows) => {
      for (const r of rows) storage.changes.emit({ kind: "hook", id: r.hookId, channel: r.channel });
    },
  });
  // Every caught hook is counted for the thread's flood watch, checked on it or not; and `busy`, the
  // serving thread's other work counted as caught hooks (a bulk job's batches: BulkDeps.worked).
  return thread
    ? {
        ...contracts,
        caught: (hooks: Parameters<typeof contracts.caught>[0]) => (thread.caught(hooks.length), contracts.caught(hooks)),
        busy: (hooks: number) => thread.caught(hooks),
      }
    : { ...contracts, busy: (_hooks: number) => {} };
}

export type ContractService = NonNullable<ReturnType<typeof createContractService>>;
