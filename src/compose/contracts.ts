import { createContractChecker, createContracts } from "../contracts";
import type { Base } from "./base";

/** Contract checks of caught hooks (contracts/), fed by compose/changes.ts with this instance's caught batches. */
export function createContractService({ storage, clock, log, metrics, config }: Base) {
  if (!config.contracts.enabled) return undefined;
  const own = config.channelSchemas ?? {};
  const checker = createContractChecker((channel) => own[channel]);
  return createContracts({ store: storage.contracts, checker, clock, log, counted: (channel, result) => metrics.contractChecked(channel, result) });
}
