import type { Clock } from "../../lib/clock";
import type { SignIn } from "../auth";
import type { ChannelService } from "../channels";
import type { Refusals } from "../guards";
import type { HookSearch } from "../hook-search";
import type { HookService } from "../service";

/**
 * What the management API's route plugins are given (by the composition behind API keys, or by the
 * dashboard with its session gate). The route plugins of the services built on hooks (transfer/,
 * responses/, dedup/, runner/) take these and their own service.
 */
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
  search: HookSearch;
  refusals: Refusals;
  clock: Clock;
  /** Keeps a request's connection open however long its handler takes (no idle timeout). */
  keepOpen: (request: Request) => void;
  /**
   * Called in order once a channel is deleted: what the services built on hooks keep of it goes
   * too (its custom response, its remembered delivery ids).
   */
  onChannelDeleted: readonly ((channel: string) => Promise<void>)[];
};
