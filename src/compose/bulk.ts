import { Elysia } from "elysia";
import { bulkRoutes } from "../bulk/routes";
import { BULK_BATCH, BULK_BUSY_MS, BULK_REMOTE_BATCH, createBulk } from "../bulk/service";
import { requireApiKey, type SignIn } from "../hooks/auth";
import { webhookErrors } from "../hooks/errors";
import { LOCAL_USER } from "../dashboard/gate";
import { callerChannels } from "../lib/caller";
import { createIdFactory } from "../lib/ids";
import { viewRoutes } from "../views/routes";
import { sharedRoutes, shareLinkRoutes } from "../share/routes";
import { createShareLinks } from "../share/service";
import { createViews } from "../views/service";
import type { Base } from "./base";
import type { ContractService } from "./contracts";
import type { WebhookService } from "./webhooks";

/**
 * Bulk actions by query (bulk/), saved views (views/) and share links (share/): under /v1 behind the API keys
 * (`send` and shared views for keys without a channel limit; a limited key acts as a member), and for the
 * dashboard behind its sessions (`send` and shared views for admins).
 */
export function createBulkService(
  { config, storage, clock, log }: Base,
  { webhooks, contracts }: { webhooks: WebhookService; contracts?: Pick<ContractService, "busy"> },
) {
  const { management } = webhooks;
  // Catching goes on while a hook was caught here in the last BULK_BUSY_MS: a job then takes less of the thread.
  let lastCaughtAt = Number.NEGATIVE_INFINITY;
  storage.changes.subscribe((change, origin) => {
    if (origin === "local" && change.kind === "caught") lastCaughtAt = performance.now();
  });
  const bulk = createBulk({
    store: storage.bulkJobs,
    hooks: webhooks.hooks,
    search: management.search,
    clock,
    log,
    nextId: createIdFactory(clock),
    outbound: { allowLinkLocal: config.server.allow_link_local, now: () => clock.now() },
    tags: storage.tags,
    reads: storage.reads,
    leaseMs: config.storage.attempt_lease,
    busy: () => performance.now() - lastCaughtAt < BULK_BUSY_MS,
    // A job's batches count with caught hooks for the background threads' flood watch (lib/serving-busy.ts).
    worked: (weight) => (webhooks.search.busy(weight), contracts?.busy(weight)),
    batch: storage.dialect === "postgres" ? BULK_REMOTE_BATCH : BULK_BATCH,
    // PostgreSQL reads a status across channels by its own index (hooks_status_id), in one statement a page.
    channels:
      storage.dialect === "postgres" ? undefined : async (status) => (await storage.hooks.listChannels()).filter((c) => c.stats[status] > 0).map((c) => c.name),
  });
  const views = createViews({ store: storage.views, search: management.search, clock });
  const shareLinks = createShareLinks({
    store: storage.shareLinks,
    clock,
    hook: (id) => management.hooks.get(id, { contract: false }),
    search: management.search,
    views: (actor) => views.list(actor),
    creatorAccess: async (actor) => {
      if (actor.startsWith("api:")) {
        await webhooks.apiKeys.source.fresh?.();
        const key = webhooks.apiKeys.source.keys.find((k) => k.label === actor.slice(4));
        return key ? (key.grant?.channels ?? null) : undefined;
      }
      if (actor === LOCAL_USER.email && config.dashboard.auth === "none") return null;
      const configured = config.users.find((u) => u.email.toLowerCase() === actor);
      if (configured) return configured.channels ?? null;
      const stored = await storage.dashboard.getUser(actor);
      return stored ? (stored.channels ? (JSON.parse(stored.channels) as string[]) : null) : undefined;
    },
  });
  type IsAdmin = (request: Request) => boolean;
  const dashboardRoutes = {
    bulk: (auth: SignIn, isAdmin: IsAdmin) => bulkRoutes({ auth, bulk, transfer: management.transfer, isAdmin }),
    views: (auth: SignIn, isAdmin: IsAdmin) => viewRoutes({ auth, views, isAdmin }),
    share: (auth: SignIn, isAdmin: IsAdmin) => shareLinkRoutes({ auth, links: shareLinks, isAdmin }),
    /** GET /shared/{token}: no sign-in, the link's token alone. */
    shared: () => sharedRoutes(shareLinks),
  };
  const auth = requireApiKey(webhooks.apiKeys.source);
  /** On /v1 a key without a channel limit acts as an admin does (send to a URL, shared views); a limited one as a member. */
  const fullKey = () => callerChannels() === undefined;
  const routes = new Elysia()
    .onError(webhookErrors(log))
    .use(
      new Elysia({ prefix: "/v1" })
        .use(dashboardRoutes.bulk(auth, fullKey))
        .use(dashboardRoutes.views(auth, fullKey))
        .use(dashboardRoutes.share(auth, fullKey)),
    );
  return { bulk, views, shareLinks, routes, dashboardRoutes };
}

export type BulkService = ReturnType<typeof createBulkService>;
