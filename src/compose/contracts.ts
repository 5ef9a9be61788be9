import { createContractChecker, createContracts } from "../contracts";
import type { Base } from "./base";

/** Contract checks of caught hooks (contracts/), fed by compose/changes.ts with this instance's caught batches. */
export function createContractService({ storage, clock, log, metrics, config }: Base) {
  if (!config.contracts.enabled) return undefined;
  const own = config.channelSchemas ?? {};
  const checker = createContractChecker((channel) => own[channel]);
  return createContracts({
    store: storage.contracts,
    checker,
    clock,
    log,
    counted: (channel, result) => metrics.contractChecked(channel, result),
    // A hook's event again on the stream, now with its `contract` (a `none` that marks nothing is implied at once: not sent again).
    recorded: (rows) => {
      for (const r of rows) storage.changes.emit({ kind: "hook", id: r.hookId, channel: r.channel });
    },
  });
}
