import type { Clock } from "../../lib/clock";
import type { Runner } from "../../runner";
import type { requireApiKey } from "../auth";
import type { ChannelService } from "../channels";
import type { Dedup } from "../dedup";
import type { Refusals } from "../guards";
import type { Responses } from "../responses";
import type { HookService } from "../service";
import type { Search } from "../search";
import type { Transfer } from "../transfer";

/** What the management API's route plugins are given (by managementRoutes, or by the dashboard with its session gate). */
export type ManagementDeps = {
  /** Each route plugin uses this first: it gives handlers `actor` and refuses bad tokens. */
  auth: ReturnType<typeof requireApiKey>;
  /**
   * The gate of admin actions (a channel's custom response, which answers on the dashboard's
   * origin): the dashboard's admin session; absent, `auth` (an API key without scopes has full access).
   */
  admin?: ReturnType<typeof requireApiKey>;
  channels: ChannelService;
  hooks: HookService;
  search: Search;
  transfer: Transfer;
  refusals: Refusals;
  runner: Runner;
  clock: Clock;
  /** Keeps a request's connection open however long its handler takes (no idle timeout). */
  keepOpen: (request: Request) => void;
  responses: Responses;
  dedup: Dedup;
};
