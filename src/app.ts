import { Elysia } from "elysia";
import type { Config } from "./config/schema";
import type { Storage } from "./db/storage";
import type { Clock } from "./lib/clock";
import type { Log } from "./lib/log";
import { silentActivity, type Activity } from "./lib/terminal";
import type { Runner } from "./runner";
import { refuseScopedKey } from "./hooks/auth";
import { filteredByCaller } from "./db/caller-filter";
import { withCaller } from "./lib/caller";
import { createMetrics, type Metrics } from "./metrics";
import type { Base } from "./compose/base";
import { createSearchService } from "./compose/search";
import { createWebhookService } from "./compose/webhooks";
import { createLiveService } from "./compose/live";
import { createTranslateService } from "./compose/translate";
import { createRelayService } from "./compose/relay";
import { createDashboardService } from "./compose/dashboard";
import { createDeliveryService } from "./compose/delivery";
import { createMetricsService } from "./compose/metrics";
import { createOpenapiService } from "./compose/openapi";
import { connectRunner } from "./compose/runner";
import { subscribeToChanges } from "./compose/changes";
import { createContractService } from "./compose/contracts";
import { createUnrouted } from "./compose/unrouted";
import { createAlertService, createNotify } from "./compose/alerts";
import { createBulkService } from "./compose/bulk";
import type { Notify } from "./notify/notice";
import type { Notifiers } from "./notify/notifiers";

/** How long a stop waits for notices being sent. */
const STOP_SENDS_MS = 10_000;

export type AppDeps = {
  config: Config;
  storage: Storage;
  clock: Clock;
  log: Log;
  runner: Runner;
  /** Hooks per transaction when a channel is deleted (tests shrink it); CHANNEL_DELETE_BATCH by default. */
  channelDeleteBatch?: number;
  /** Where the app counts; the runner is given the same one. A new one when absent. */
  metrics?: Metrics;
  /** How often live streams send a heartbeat (tests shorten it); 15 s by default. */
  heartbeatMs?: number;
  /** How long caught hooks wait to be indexed for search (search/; tests lengthen it). */
  searchGatherMs?: number;
  /** Bodies held in memory for the search index, at most (tests make it small). */
  searchMaxWaitingBytes?: number;
  /** The live terminal's caught and refused lines (silent by default). */
  activity?: Activity;
  /** This instance's name among those sharing the database (relay listeners); a random one by default. */
  instance?: string;
  /**
   * The contract checks' thread module (contracts/thread.ts by run.ts threadModule, and the build
   * must name it): the checks' CPU work runs there at the lowest priority; on this thread after the
   * answers without it (tests in process that want it on one thread).
   */
  contractsThreadUrl?: string;
  /** Bodies held in memory for the contract checks, at most (contracts/ MAX_WAITING_BYTES; tests make it small). */
  contractsMaxWaitingBytes?: number;
  /** Where alerts' issue notices go (notify/); nowhere by default. */
  notify?: Notify;
};

/**
 * Composes both services on one Elysia instance, each service in its own module (compose/), in
 * the order of what they need. Never listens and never reads the environment: main.ts and the
 * tests hand it everything.
 */
export function createApp(deps: AppDeps) {
  const { config, log, runner } = deps;
  // Every service reads storage as the request's caller may see it (lib/caller.ts).
  const storage = filteredByCaller(deps.storage);
  const base: Base = {
    config,
    storage,
    clock: deps.clock,
    log,
    runner,
    metrics: deps.metrics ?? createMetrics(config),
    activity: deps.activity ?? silentActivity,
  };
  storage.changes.setLog(log);
  const search = createSearchService(base, { gatherMs: deps.searchGatherMs, maxWaitingBytes: deps.searchMaxWaitingBytes });
  const webhooks = createWebhookService(base, { search, channelDeleteBatch: deps.channelDeleteBatch });
  const { live, routes: streams } = createLiveService(base, { hooks: webhooks.hooks, apiKeys: webhooks.apiKeys, heartbeatMs: deps.heartbeatMs });
  const translate = createTranslateService(base);
  const relay = createRelayService(base, { apiKeys: webhooks.apiKeys, instance: deps.instance ?? crypto.randomUUID() });
  const delivery = createDeliveryService(base, { webhooks });
  const notify = deps.notify ?? createNotify(base);
  const alerts = createAlertService(base, { webhooks, relay, notify });
  const contracts = createContractService(base, deps.contractsThreadUrl, deps.contractsMaxWaitingBytes);
  const bulk = createBulkService(base, { webhooks, contracts });
  const dashboard = createDashboardService(base, { webhooks, live, translate, relay, delivery, alerts, bulk });
  const metrics = createMetricsService(base, { webhooks, relay });
  const openapi = createOpenapiService(base, () => app.routes);
  connectRunner(base, { webhooks, translate });
  subscribeToChanges(base, { webhooks, live, relay, delivery, loadDefaultGuards: dashboard.loadDefaultGuards, contracts });
  storage.changes.subscribe((change) => alerts.engine.observe(change));

  let started = false;
  // standardHostname off: Elysia would otherwise skip 11 characters of the URL to find the path, which a
  // Host of three characters or fewer ("x", "api") defeats: requests were routed by a shifted path.
  const app = new Elysia({ normalize: false, handler: { standardHostname: false } })
    // Requests wait for start-up's reads (main.ts listens only after them; app.handle in tests may come first).
    .onRequest(async ({ request }) => {
      if (!started) await ready;
      // A relay key opens the relay endpoint only (server.ts routes it before this app): a route that
      // takes no API key (the dashboard's API, /docs) refuses it too, as the management API does.
      if (request.headers.has("authorization")) refuseScopedKey(webhooks.apiKeys.source, request, translate.owns);
    })
    // Each API answers its own routes' errors in its own format (its onError); the last handler, what no route saw.
    .use(webhooks.routes)
    .use(delivery.routes)
    .use(alerts.routes)
    .use(bulk.routes)
    .use(streams)
    .use(translate.routes)
    .use(dashboard.routes)
    .use(openapi.routes);
  if (metrics.routes) app.use(metrics.routes);
  app.onError(createUnrouted(base, { translate, routes: () => app.routes }));
  runsInCallerScope(app);

  /** Waits until every caught hook is committed and on disk. */
  async function close(): Promise<void> {
    live.streams.close();
    await relay.hub.close();
    await webhooks.writer.drain();
    await search.close();
    contracts?.close();
    // Notices being sent finish (up to 10 s) before storage closes: one cut off is sent again after the restart.
    if ("stop" in notify) await (notify as Notifiers).stop(STOP_SENDS_MS);
  }

  /**
   * What start-up reads from storage before the first request: the configured channels declared
   * and every channel's state loaded, the configured translation accounts created, the stored
   * channels' metric labels, the dashboard's guards and forwards, the stored responses, dedup
   * counts, the API keys (the local one generated on the first start) and the stored default
   * guards. main.ts and the tests await it before serving.
   */
  const ready: Promise<void> = (async () => {
    await webhooks.init();
    await translate.init();
    await webhooks.load();
    await delivery.load();
    relay.sync();
    // The config file's default guards win over those set in the dashboard.
    await dashboard.loadDefaultGuards();
    await metrics.watch();
    // Bulk jobs left running by an instance that stopped (on SQLite: by this file's last process).
    await bulk.bulk.recover(storage.dialect === "sqlite");
    search.start();
    started = true;
  })();
  // Whoever awaits it sees a failure (main.ts exits with it); nobody else must crash on it.
  ready.catch(() => {});

  const { apiKeys, catcher, connections, writer, hooks, channels, store, responses, dedup } = webhooks;
  return {
    app,
    ready,
    apiKeys,
    catcher,
    relay: relay.endpoint,
    relayHub: relay.hub,
    listens: relay.listens,
    connections,
    writer,
    hooks,
    search,
    channels,
    store,
    metrics: base.metrics,
    metricsApp: metrics.app,
    dashboard: dashboard.dashboard,
    live,
    responses,
    dedup,
    alerts,
    close,
  };
}

export type App = ReturnType<typeof createApp>;

/**
 * Runs each request the app handles (fetch, and handle, which calls it) in a caller scope of its
 * own (lib/caller.ts), which signing in limits. Elysia compiles its handler on the first read of
 * `fetch`; the wrapper takes its place then.
 */
function runsInCallerScope(app: Elysia<any, any, any, any, any, any, any>): void {
  const compile = Object.getOwnPropertyDescriptor(Elysia.prototype, "fetch")!.get!;
  Object.defineProperty(app, "fetch", {
    configurable: true,
    get() {
      const inner = compile.call(app) as (request: Request) => Response | Promise<Response>;
      const value = (request: Request) => withCaller(() => inner(request));
      Object.defineProperty(app, "fetch", { value, configurable: true, writable: true });
      return value;
    },
  });
}
