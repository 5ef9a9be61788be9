import type { Clock } from "../../lib/clock";
import type { AccountService } from "../accounts";
import type { Faults } from "../faults";
import type { Gate } from "../gate";
import type { OrderService } from "../orders";
import type { Rates } from "../rates";
import type { Simulator } from "../simulator";
import type { WorkService } from "../work";

/** Everything the route plugins use, handed over as one bundle. */
export type RouteDeps = {
  gate: Gate;
  orders: OrderService;
  work: WorkService;
  accounts: AccountService;
  rates: Rates;
  faults: Faults;
  simulator: Simulator;
  clock: Clock;
};
