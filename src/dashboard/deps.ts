import type { ApiKeys } from "../hooks/api-keys";
import type { Gate } from "./gate";
import type { Sessions } from "./sessions";
import type { Setup } from "./setup";
import type { Throttle } from "./throttle";
import type { Devices } from "./devices";
import type { Users } from "./users";

/** What the dashboard's own route plugins are given (createDashboard makes it). */
export type DashboardDeps = {
  gate: Gate;
  users: Users;
  sessions: Sessions;
  setup: Setup;
  /** Failures for one account from one ip (the strict limit: an attacker elsewhere cannot lock its owner out). */
  accountIpThrottle: Throttle;
  /** Failures for one account from anywhere (the loose limit: guessing spread over many ips). */
  accountThrottle: Throttle;
  ipThrottle: Throttle;
  /** Failures from one signed-in browser (dashboard/devices.ts): the only limit a device cookie is held to. */
  deviceThrottle: Throttle;
  devices: Devices;
  apiKeys: ApiKeys;
  /**
   * The sender ip of a request, as the listener noted it (app.handle in tests has none), or with
   * `trust_proxy` the one the proxy in front added, as for caught hooks.
   */
  ipOf: (request: Request) => string;
};
