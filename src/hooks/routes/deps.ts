import type { Clock } from "../../lib/clock";
import type { Runner } from "../../runner";
import type { SignIn } from "../auth";
import type { ChannelService } from "../channels";
import type { Dedup } from "../../dedup/index";
import type { Refusals } from "../guards";
import type { Responses } from "../../responses/index";
import type { HookService } from "../service";
import type { Search } from "../../search";
import type { Transfer } from "../../transfer";

/** What the management API's route plugins are given (by managementRoutes, or by the dashboard with its session gate). */
export type ManagementDeps = {
  /**
   * How a caller signs in, which each route plugin uses first: an API key (the management API) or
   * a session (the dashboard). It gives handlers `actor` and refuses a caller it does not know.
   */
  auth: SignIn;
  /**
   * The gate of admin actions (a channel's custom response, which answers on the dashboard's
   * origin): the dashboard's admin session; absent, `auth` (an API key without scopes has full access).
   */
  admin?: SignIn;
  /**
   * Throws permission_denied unless the request may send a hook to `url` (replay, edit and send to
   * a URL), as the dashboard's members may only to `[dashboard] member_send_to`; absent, anyone
   * `auth` lets in may (an API key without scopes, as for adding a forward handler).
   */
  sendsTo?: (request: Request, url: string) => void;
  /** `[server] allow_link_local`: whether a replay may reach link-local addresses and metadata services. */
  allowLinkLocal: boolean;
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
