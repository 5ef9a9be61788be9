import { Elysia } from "elysia";
import { requireApiKey, type ApiKey, type KeySource } from "../auth";
import type { ManagementDeps } from "./deps";
import { channelRoutes } from "./channels";
import { hookRoutes } from "./hooks";
import { refusalRoutes } from "./refusals";
import { attemptRoutes } from "../../runner/routes";
import { channelExtraRoutes } from "../../responses/routes";
import { exportRoutes, importRoutes } from "../../transfer/routes";
import { sendRoutes } from "../../transfer/send-routes";

export type { ManagementDeps } from "./deps";

/** The management interface under /v1: every route here requires an API key. */
export function managementRoutes(keys: readonly ApiKey[] | KeySource, rest: Omit<ManagementDeps, "auth">) {
  const deps: ManagementDeps = { ...rest, auth: requireApiKey(keys) };
  // Each route plugin uses deps.auth itself (that is what types `actor`); a test walks every
  // /v1 route of the app and checks it answers 401 without a token.
  return new Elysia({ prefix: "/v1" })
    .use(channelRoutes(deps))
    .use(channelExtraRoutes(deps))
    .use(exportRoutes(deps))
    .use(importRoutes(deps))
    .use(hookRoutes(deps))
    .use(sendRoutes(deps))
    .use(refusalRoutes(deps))
    .use(attemptRoutes(deps));
}
