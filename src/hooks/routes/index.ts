import { Elysia } from "elysia";
import type { Clock } from "../../lib/clock";
import type { Runner } from "../../runner";
import { requireApiKey, type ApiKey, type KeySource } from "../auth";
import type { ChannelService } from "../channels";
import type { HookService } from "../service";
import type { Refusals } from "../guards";
import type { Responses } from "../responses";
import type { Dedup } from "../dedup";
import { channelRoutes } from "./channels";
import { hookRoutes } from "./hooks";
import { refusalRoutes } from "./refusals";
import { attemptRoutes } from "./attempts";
import { channelExtraRoutes } from "./responses";

export type ManagementDeps = {
  /** Each route plugin uses this first: it gives handlers `actor` and refuses bad tokens. */
  auth: ReturnType<typeof requireApiKey>;
  channels: ChannelService;
  hooks: HookService;
  refusals: Refusals;
  runner: Runner;
  clock: Clock;
  /** Keeps a request's connection open however long its handler takes (no idle timeout). */
  keepOpen: (request: Request) => void;
  responses: Responses;
  dedup: Dedup;
};

/** The management interface under /v1: every route here requires an API key. */
export function managementRoutes(keys: readonly ApiKey[] | KeySource, rest: Omit<ManagementDeps, "auth">) {
  const deps: ManagementDeps = { ...rest, auth: requireApiKey(keys) };
  // Each route plugin uses deps.auth itself (that is what types `actor`); a test walks every
  // /v1 route of the app and checks it answers 401 without a token.
  return new Elysia({ prefix: "/v1" })
    .use(channelRoutes(deps))
    .use(channelExtraRoutes(deps))
    .use(hookRoutes(deps))
    .use(refusalRoutes(deps))
    .use(attemptRoutes(deps));
}
