import { type AnyElysia, Elysia, t } from "elysia";
import type { bulkRoutes as bulkQueryRoutes } from "../bulk/routes";
import type { viewRoutes } from "../views/routes";
import type { handlerControlRoutes } from "../delivery/handler-routes";
import type { issueRoutes } from "../alerts/routes";
import type { notifierRoutes } from "../notify/routes";
import type { alertRuleRoutes } from "../alerts/rule-routes";
import type { Config } from "../config/schema";
import type { Clock } from "../lib/clock";
import { ErrorBody, NoQuery } from "../hooks/model";
import type { ManagementDeps } from "../hooks/routes/deps";
import { attemptRoutes } from "../runner/routes";
import { channelRoutes } from "../hooks/routes/channels";
import { responseRoutes } from "../responses/routes";
import { tagRoutes } from "../tags/routes";
import type { Tags } from "../tags";
import { dedupRoutes } from "../dedup/routes";
import { hookRoutes } from "../hooks/routes/hooks";
import { exportRoutes } from "../transfer/routes";
import { sendRoutes } from "../transfer/send-routes";
import { refusalRoutes } from "../hooks/routes/refusals";
import { createGate, type Gate } from "./gate";
import { callerSees } from "../lib/caller";
import { AppError } from "../lib/errors";
import type { DashboardDeps } from "./deps";
import { senderIp } from "../hooks/catch";
import { createSessions } from "./sessions";
import type { DashboardStore } from "./store";
import { createSetup } from "./setup";
import { createThrottle } from "./throttle";
import { createDevices } from "./devices";
import { createUsers } from "./users";
import { sessionRoutes, SIGN_IN_LIMITS } from "./routes/session";
import { userRoutes } from "./routes/users";
import { apiKeyRoutes } from "./routes/api-keys";
import { bulkRoutes } from "./routes/bulk";
import { guardRoutes } from "./routes/guards";
import { handlerRoutes } from "./routes/handlers";
import { resignKindRoutes } from "./routes/resign-kinds";
import { translateRoutes } from "./routes/translate";
import type { TranslateServices } from "../translate";
import type { Forwards } from "../forwards/index";
import type { Responses } from "../responses/index";
import type { Dedup } from "../dedup/index";
import type { Transfer } from "../transfer";
import { type FixtureSettings, fixtureRoutes } from "../fixtures/routes";
import type { Runner } from "../runner";
import type { GuardRegistry } from "../hooks/guard-registry";
import type { ApiKeys } from "../hooks/api-keys";
import { VERSION } from "../lib/version";
import type { Live } from "../live";
import { streamRoutes } from "../live/routes";
import type { RelaySnapshot } from "../metrics/relay";

export type { DashboardDeps } from "./deps";

/**
 * What the route plugins the dashboard shares with the management API are given, but their gate:
 * hooks' own (ManagementDeps) and the services built on hooks whose routes are shared too.
 */
export type SharedRouteDeps = Omit<ManagementDeps, "auth"> & {
  transfer: Transfer;
  responses: Responses;
  /** Hooks' tags and read marks (tags/). */
  tags: Tags;
  dedup: Dedup;
  runner: Runner;
  /** `[fixtures]`: what a fixture keeps and scrubs (fixtures/routes.ts). */
  fixtures: FixtureSettings;
};

/** Where the dashboard's JSON endpoints live (the page itself is served under /ui by server.ts). */
export const DASHBOARD_API = "/ui/api";

/**
 * Who may send a hook to a URL from the dashboard (replay, edit and send): an admin, as for adding
 * a forward handler, since Mailroom's request answers from wherever it runs (127.0.0.1, the
 * internal network); a member only to `[dashboard] member_send_to`. Throws permission_denied.
 */
function memberSendsTo(config: Config, gate: Gate) {
  const patterns = config.dashboard.member_send_to;
  return (request: Request, url: string): void => {
    if (gate.userOf(request)?.role === "admin") return;
    if (patterns.some((p) => p.matches(url))) return;
    const allowed =
      patterns.length > 0
        ? `URLs matching [dashboard] member_send_to (${patterns.map((p) => p.pattern).join(", ")})`
        : "no URL ([dashboard] member_send_to is empty)";
    throw new AppError(
      "permission_denied",
      `only an admin may send a hook to a URL, as only an admin adds a forward handler; a member may send it into a channel, or to ${allowed}`,
    );
  };
}

/**
 * The dashboard's server side: users, sessions, the first-admin setup, and JSON endpoints under
 * /ui/api that only a session opens. The hook, channel, refusal and attempt endpoints are the
 * management API's own route plugins, given the session gate instead of the API-key one, so the
 * two cannot drift and events record the user's e-mail address as their actor.
 */
export function createDashboard(deps: {
  config: Config;
  store: DashboardStore;
  clock: Clock;
  live: Live;
  apiKeys: ApiKeys;
  guards: GuardRegistry;
  forwards: Forwards;
  translate: TranslateServices;
  management: SharedRouteDeps;
  /** The relays (upstream's and this Mailroom's own listens), for GET /ui/api/relays. */
  relays: () => Promise<RelaySnapshot>;
  /** The handlers' delivery controls (list, pause, resume: delivery/handler-routes.ts), given the session gates. */
  handlerControls: (gates: Pick<ManagementDeps, "auth" | "admin">) => ReturnType<typeof handlerControlRoutes>;
  /** Alerts' issues (list, ack, resolve: alerts/routes.ts), given the session gate. */
  issueRoutes?: (gates: Pick<ManagementDeps, "auth">) => ReturnType<typeof issueRoutes>;
  /** Alerts' notifiers (list, send a test: notify/routes.ts), for admins, given the session gates. */
  notifierRoutes?: (gates: Pick<ManagementDeps, "auth" | "admin">) => ReturnType<typeof notifierRoutes>;
  /** Alerts' rules (alerts/rule-routes.ts), given the session gates (admins). */
  alertRuleRoutes?: (gates: Pick<ManagementDeps, "auth" | "admin">) => ReturnType<typeof alertRuleRoutes>;
  /** Bulk actions by query and saved views (compose/bulk.ts), given the session gate and who is an admin. */
  bulkActions?: {
    bulk: (auth: ManagementDeps["auth"], isAdmin: (request: Request) => boolean) => ReturnType<typeof bulkQueryRoutes>;
    views: (auth: ManagementDeps["auth"], isAdmin: (request: Request) => boolean) => ReturnType<typeof viewRoutes>;
    /** Share links (share/routes.ts), and GET /shared/{token} that needs no session; typed loosely, to keep the chain's type shallow. */
    share: (auth: ManagementDeps["auth"], isAdmin: (request: Request) => boolean) => AnyElysia;
    shared: () => AnyElysia;
  };
}) {
  const { config, store, clock } = deps;
  const users = createUsers({ store, config, clock });
  const sessions = createSessions({ store, clock, users });
  const gate = createGate({ config, sessions });
  const setup = createSetup({ users, store, clock });
  const ips = new WeakMap<Request, string>();
  const own: DashboardDeps = {
    gate,
    users,
    sessions,
    setup,
    apiKeys: deps.apiKeys,
    ipOf: (request) => senderIp(request, ips.get(request) ?? "", config.server.trust_proxy),
    accountIpThrottle: createThrottle({ clock, limit: SIGN_IN_LIMITS.accountFromIp, windowMs: SIGN_IN_LIMITS.windowMs }),
    accountThrottle: createThrottle({ clock, limit: SIGN_IN_LIMITS.account, windowMs: SIGN_IN_LIMITS.windowMs }),
    ipThrottle: createThrottle({ clock, limit: SIGN_IN_LIMITS.ip, windowMs: SIGN_IN_LIMITS.windowMs }),
    deviceThrottle: createThrottle({ clock, limit: SIGN_IN_LIMITS.device, windowMs: SIGN_IN_LIMITS.windowMs }),
    devices: createDevices(store),
  };
  const management = {
    ...deps.management,
    auth: gate.requireSession(),
    admin: gate.requireSession("admin"),
    sendsTo: memberSendsTo(config, gate),
  } satisfies ManagementDeps;
  const isAdmin = (request: Request) => gate.userOf(request)?.role === "admin";
  const routes = new Elysia({ prefix: DASHBOARD_API })
    .use(sessionRoutes(own))
    .use(userRoutes(own))
    .use(apiKeyRoutes(own))
    .use(
      new Elysia().use(gate.requireSession()).get("/info", () => ({ version: VERSION, public_url: config.server.public_url?.href ?? null }), {
        query: NoQuery,
        response: { 200: t.Object({ version: t.String(), public_url: t.Union([t.String(), t.Null()]) }), 401: ErrorBody },
      }),
    )
    // The relays' state: each relay key's listener and what waits for it, and this Mailroom's own listens.
    // A member limited to channels sees those channels' relays only.
    .use(
      new Elysia().use(gate.requireSession()).get(
        "/relays",
        async () => {
          const all = await deps.relays();
          return { upstream: all.upstream.filter((r) => callerSees(r.channel)), listening: all.listening.filter((l) => callerSees(l.channel)) };
        },
        { query: NoQuery },
      ),
    )
    .use(channelRoutes(management))
    // A channel's custom response and its deduplication counter (Mailroom's extensions), as under /v1.
    .use(responseRoutes(management))
    .use(dedupRoutes(management))
    .use(exportRoutes(management))
    .use(hookRoutes(management))
    .use(sendRoutes(management))
    .use(fixtureRoutes(management))
    .use(refusalRoutes(management))
    .use(attemptRoutes(management))
    .use(tagRoutes(management))
    .use(guardRoutes({ gate, guards: deps.guards, channels: deps.management.channels, settings: store }))
    .use(handlerRoutes({ gate, forwards: deps.forwards, channels: deps.management.channels }))
    .use(deps.handlerControls(management))
    .use(deps.issueRoutes?.(management) ?? new Elysia())
    .use(deps.notifierRoutes?.(management) ?? new Elysia())
    .use(deps.alertRuleRoutes?.(management) ?? new Elysia())
    .use(deps.bulkActions?.bulk(gate.requireSession(), isAdmin) ?? new Elysia())
    .use(deps.bulkActions?.views(gate.requireSession(), isAdmin) ?? new Elysia())
    .use((deps.bulkActions ? new Elysia().use(deps.bulkActions.share(gate.requireSession(), isAdmin)).use(deps.bulkActions.shared()) : new Elysia()) as Elysia)
    .use(resignKindRoutes({ gate }))
    .use(translateRoutes({ gate, services: deps.translate }))
    .use(bulkRoutes({ auth: gate.requireSession(), hooks: deps.management.hooks, channels: deps.management.channels }))
    .use(streamRoutes(gate.requireSession(), deps.live, gate.stillSignedIn()));
  /** Called by the listener for each dashboard request, before the app sees it. */
  const noteIp = (request: Request, ip: string) => void ips.set(request, ip);
  return { routes, users, sessions, setup, gate, noteIp };
}

export type Dashboard = ReturnType<typeof createDashboard>;
