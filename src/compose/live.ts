import { Elysia } from "elysia";
import type { ApiKeys } from "../hooks/api-keys";
import { admits, requireApiKey } from "../hooks/auth";
import { webhookErrors } from "../hooks/errors";
import type { HookService } from "../hooks/service";
import { createLive } from "../live";
import { streamRoutes } from "../live/routes";
import { toWireIssue } from "../alerts/model";
import type { Base } from "./base";

/**
 * The live streams of changes: /v1/stream behind the API keys, in the management API's error
 * format (the dashboard mounts its own behind a session). Every change reaches them through
 * compose/changes.ts.
 */
export function createLiveService({ storage, log }: Base, { hooks, apiKeys, heartbeatMs }: { hooks: HookService; apiKeys: ApiKeys; heartbeatMs?: number }) {
  const issue = async (id: string) => {
    const row = await storage.issues.get(id);
    return row && { data: JSON.stringify(toWireIssue(row)), scope: row.scope };
  };
  const live = createLive({ store: storage.hooks, hooks: () => hooks, issue, tags: (ids) => storage.tags.tagsOf(ids), heartbeatMs });
  const keys = apiKeys.source;
  const routes = new Elysia({ prefix: "/v1" })
    .onError(webhookErrors(log))
    .use(streamRoutes(requireApiKey(keys), live, (request) => admits(keys, request), { keys: true }));
  return { live, routes };
}
