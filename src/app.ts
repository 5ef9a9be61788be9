import { Elysia } from "elysia";
import type { Config } from "./config/schema";
import type { Storage } from "./db/storage";
import type { Clock } from "./lib/clock";
import type { Log } from "./lib/log";
import { silentActivity, type Activity } from "./lib/terminal";
import { createIdFactory } from "./lib/ids";
import type { Runner } from "./runner";
import { createChannelService } from "./hooks/channels";
import { createHookService } from "./hooks/service";
import { createSearch } from "./search";
import { createThreadedSearch } from "./search/threaded";
import { createTransfer } from "./transfer";
import { createBatchWriter } from "./hooks/writer";
import { createCatcher } from "./hooks/catch";
import { createResponses } from "./responses/index";
import { createDedup } from "./dedup/index";
import { createRetention } from "./hooks/retention";
import { hooksErrorResponse } from "./hooks/errors";
import { type ManagementDeps, managementRoutes } from "./hooks/routes";
import { admits, refuseScopedKey, requireApiKey } from "./hooks/auth";
import { createApiKeys } from "./hooks/api-keys";
import { createLive } from "./live";
import type { StatePart } from "./db/changes";
import { connectFeed } from "./db/feed-changes";
import { createReloader } from "./lib/reloader";
import { streamRoutes } from "./live/routes";
import { createGuards, createRefusals, createRefusalStore } from "./hooks/guards";
import { createTranslate } from "./translate";
import { openapiRoutes } from "./openapi";
import type { RouteInfo } from "./openapi/generate";
import { createMetrics, type Metrics } from "./metrics";
import { timedCatcher, translateCounter } from "./metrics/instrument";
import { metricsRoutes } from "./metrics/routes";
import { createDashboard } from "./dashboard";
import { createGuardRegistry } from "./hooks/guard-registry";
import { createForwards } from "./forwards/index";
import { createRelayHub } from "./relay/hub";
import { createRelayEndpoint } from "./relay/endpoint";
import type { ListenState } from "./relay/client";
import { parseSize } from "./lib/units";

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
};

/**
 * Composes both services on one Elysia instance. Never listens and never reads the environment:
 * main.ts and the tests hand it everything.
 */
export function createApp(deps: AppDeps) {
  const { config, storage, clock, log, runner } = deps;
  const metrics = deps.metrics ?? createMetrics(config);
  const activity = deps.activity ?? silentActivity;
  const store = storage.hooks;
  // Every committed change reaches one sink (db/changes.ts); the streams, the other instances,
  // metrics and the terminal subscribe below.
  const changes = storage.changes;
  changes.setLog(log);
  const live = createLive({ store, hooks: () => hooks, heartbeatMs: deps.heartbeatMs });
  const channels = createChannelService({ config, store, clock, runner, deleteBatch: deps.channelDeleteBatch });
  const hooks = createHookService({ store, clock, runner });
  runner.bind(hooks.outcomes, { raw: hooks.raw, rawMany: hooks.rawMany });
  // The search index, kept after caught batches commit (search/): catching never waits for it.
  // With SQLite's index thread, it is written there (search/threaded.ts); else on this thread.
  const search = storage.searchThread
    ? createThreadedSearch({ store: storage.search, thread: storage.searchThread, changes, log })
    : createSearch({
        store: storage.search,
        changes,
        read: (id) => store.getHook(id),
        clock,
        log,
        gatherMs: deps.searchGatherMs,
        maxWaitingBytes: deps.searchMaxWaitingBytes,
      });

  const responses = createResponses({ config, store: storage.responses, clock });
  const dedup = createDedup({ config, store: storage.dedup, clock });
  const writer = createBatchWriter({
    batchMax: config.storage.batch_max,
    async commit(batch) {
      const queued = await store.caughtTransaction(async () => {
        await store.insertHooks(batch, channels.guardsForNew);
        await dedup.record(batch);
        return runner.queueCaught(batch);
      });
      // Only hooks with handlers give the runner new work (retention and the simulator poll on
      // their own), and only once the batch is durable: no handler sees a hook a crash could lose.
      return () => {
        if (queued) runner.notify();
        changes.emit({ kind: "caught", hooks: batch });
      };
    },
    durable: storage.durable,
    lanes: storage.commitLanes,
    log,
  });
  const nextId = createIdFactory(clock);
  const transfer = createTransfer({ store: storage.transfer, hooks: store, channels, search, runner, clock, nextId });
  const guards = createGuards(config.guards, { clock, log, publicUrl: config.server.public_url });
  // Guards defined in the dashboard join the same map; a change makes the catcher plan again.
  const guardRegistry = createGuardRegistry({ config, store: storage.guards, clock, log, guards, changed: () => catcher.invalidatePlans() });
  // A refusal is stored, counted, printed and streamed: its observers in one place.
  const stored = createRefusals({ store: storage.refusals, clock });
  const refusals: typeof stored = {
    ...stored,
    record(r) {
      stored.record(r);
      changes.emit({ kind: "refusal", refusal: r, at: clock.now() });
    },
  };
  const catcher = timedCatcher(createCatcher({ config, channels, guards, refusals, writer, nextId, clock, log, responses, dedup }), metrics);
  const watchMetrics = () =>
    metrics.watch({
      channels: () => store.channelsOldestFirst(),
      storageBytes: () => store.storageBytes(),
      queueDepth: () => runner.queueDepth(),
      deduplicated: () => dedup.droppedCounts(),
      relays: relayState,
    });
  /** The relays as the dashboards and metrics show them: upstream's, and this Mailroom's own listens. */
  const relayState = async () => ({ upstream: await relayHub.state(), listening: listens.map((l) => l.state()) });

  /** Lifts a connection's idle timeout for one request; serve() sets it (app.handle has no connection). */
  const connections = { keepOpen: (_request: Request): void => {} };

  // One live set of API keys for every bearer route: a key created or revoked in the dashboard
  // works, or stops working, on the next request.
  const apiKeys = createApiKeys({ config, store: storage.apiKeys, clock });
  const translate = createTranslate({ config, store: storage.translate, clock, log });
  /** This Mailroom's own relay clients ([[relays]], mailroom listen), which run.ts starts: the dashboard shows them. */
  const listens: { state(): ListenState }[] = [];
  // Relays: a handler per relay key and channel, and the endpoint their listeners connect to.
  const maxBody = parseSize(config.hooks.max_body)!;
  const relayHub = createRelayHub({ store: storage.relays, runner, clock, log, instance: deps.instance ?? crypto.randomUUID(), maxBody });
  const relay = createRelayEndpoint({
    keys: apiKeys.source,
    hub: relayHub,
    channelKnown: async (name) => config.channels.some((c) => c.name === name) || (await store.getChannel(name)) !== undefined,
    maxBody,
  });
  const dashboardStore = storage.dashboard;
  const forwards = createForwards({ config, store: storage.forwards, clock, runner });
  // What the management routes are given, once: the API mounts them behind its keys, the dashboard behind its sessions.
  const management: Omit<ManagementDeps, "auth"> = {
    channels,
    hooks,
    search,
    transfer,
    refusals,
    runner,
    clock,
    keepOpen: (r) => connections.keepOpen(r),
    responses,
    dedup,
    allowLinkLocal: config.server.allow_link_local,
  };
  const dashboard = createDashboard({
    config,
    store: dashboardStore,
    clock,
    live,
    apiKeys,
    guards: guardRegistry,
    forwards,
    translate: translate.services,
    management,
    relays: () => relayState(),
  });

  // The simulator and retention run on one instance at a time among those sharing the database.
  if (translate.worker) runner.addWorker(storage.singleton(translate.worker));
  runner.addWorker(storage.singleton(createRetention({ config, store, log })));
  runner.addWorker(dedup.worker);

  const translated = translateCounter(metrics);
  const metricsKeys = config.metrics.auth ? apiKeys.source : undefined;
  const metricsOnMain = config.metrics.enabled && !config.metrics.listen;
  /**
   * What this instance keeps in memory of the shared state, by part, read again when another
   * instance changed it (the change feed) or, all of it, after the feed's connection was lost.
   */
  const reloads: Record<StatePart | "channels", () => Promise<unknown>> = {
    channels: () => channels.reload(),
    guards: () => guardRegistry.load(),
    forwards: () => forwards.load(),
    responses: () => responses.load(),
    api_keys: async () => {
      if (apiKeys.source.reload) apiKeys.source.keys = await apiKeys.source.reload();
      relayHub.sync(apiKeys.source.keys);
    },
    users: async () => {},
    relays: async () => {},
    dedup: () => dedup.load(),
    // Read from the database at each use.
    setup: async () => {},
    default_guards: async () => {
      const defaults = await dashboardStore.readSetting<string[]>("default_guards");
      if (defaults && !(await channels.defaultGuards()).read_only) await channels.setDefaultGuards(defaults);
    },
  };
  const reloader = createReloader(reloads, log);

  changes.subscribe((change, origin) => {
    live.apply(change);
    if (origin === "remote") {
      if (change.kind === "channel") reloader.mark("channels");
      else if (change.kind === "state") reloader.mark(change.part);
      // A hook another instance caught may be for a relay whose listener is connected here.
      else if (change.kind === "caught") runner.notify();
      return;
    }
    // A relay key made or revoked here: its handlers are attached or detached once the keys are read.
    if (change.kind === "state" && change.part === "api_keys") reloader.mark("api_keys");
    if (change.kind === "caught") {
      relayHub.caught(change.hooks.length);
      metrics.committed(change.hooks);
      activity.caught(change.hooks);
    } else if (change.kind === "refusal") {
      // A handshake answered is kept with the refusals but was not refused.
      if (change.refusal.kind === "refused") metrics.refused(change.refusal.channel, change.refusal.guard);
      activity.refused(change.refusal);
    }
  });
  // Instances sharing a database tell each other what changed (SQLite has only this one).
  if (storage.dialect === "postgres") connectFeed(storage.feed, changes, () => reloader.markAll());

  let started = false;
  // standardHostname off: Elysia would otherwise skip 11 characters of the URL to find the path, which a
  // Host of three characters or fewer ("x", "api") defeats: requests were routed by a shifted path.
  const app = new Elysia({ normalize: false, handler: { standardHostname: false } })
    .onError(({ error, code, request, route }) => {
      const path = new URL(request.url).pathname;
      if (translate.isTranslatePath(path)) {
        const response = translate.errorResponse(error, code);
        translated.error(path, route, response.status);
        return response;
      }
      return hooksErrorResponse(error, code, log, request, methodsOf);
    })
    .onAfterHandle({ as: "global" }, (ctx) => void translated.response(ctx))
    // Requests wait for start-up's reads (main.ts listens only after them; app.handle in tests may come first).
    .onRequest(async ({ request }) => {
      if (!started) await ready;
      // A relay key opens the relay endpoint only (server.ts routes it before this app): a route that
      // takes no API key (the dashboard's API, /docs) refuses it too, as the management API does.
      if (request.headers.has("authorization")) refuseScopedKey(apiKeys.source, request, translate.isTranslatePath);
    })
    .all("/", ({ request, server }) => catcher.handle(request, server?.requestIP(request)?.address ?? ""), { parse: "none" })
    .use(managementRoutes(apiKeys.source, management))
    .use(new Elysia({ prefix: "/v1" }).use(streamRoutes(requireApiKey(apiKeys.source), live, (request) => admits(apiKeys.source, request))))
    .use(translate.routes)
    .use(dashboard.routes)
    .use(openapiRoutes(allRoutes));
  if (metricsOnMain) app.use(metricsRoutes(metrics, metricsKeys));

  /** The whole route table, for the OpenAPI documents (read on their first request, when it is complete). */
  function allRoutes(): readonly RouteInfo[] {
    return app.routes;
  }

  /** /metrics on its own listener ([metrics] listen), with the same error body; main.ts serves it. */
  const metricsApp =
    config.metrics.enabled && config.metrics.listen
      ? new Elysia({ normalize: false })
          .onError(({ error, code, request }) => hooksErrorResponse(error, code, log, request))
          // As on the main listener: a relay key gets 403, even where metrics need no key.
          .onRequest(({ request }) => void (request.headers.has("authorization") && refuseScopedKey(apiKeys.source, request, () => false)))
          .use(metricsRoutes(metrics, metricsKeys))
      : undefined;

  /** The management routes as patterns, built on first use (the app is complete by then). */
  let routeTable: { pattern: RegExp; method: string }[] | undefined;
  /** Methods with a management route on this path (GET also allows HEAD). */
  function methodsOf(path: string): string[] {
    routeTable ??= app.routes
      .filter((r) => r.method !== "ALL" && (r.path.startsWith("/v1/") || r.path === "/metrics") && !translate.isTranslatePath(r.path))
      .map((r) => ({ method: r.method, pattern: new RegExp(`^${r.path.replace(/:[^/]+/g, "[^/]+")}$`) }));
    const methods = routeTable.filter((r) => r.pattern.test(path)).map((r) => r.method);
    if (methods.includes("GET")) methods.push("HEAD");
    return [...new Set(methods)];
  }

  /** Waits until every caught hook is committed and on disk. */
  async function close(): Promise<void> {
    live.streams.close();
    await relayHub.close();
    await writer.drain();
    await search.close();
  }

  /**
   * What start-up reads from storage before the first request: the configured channels declared
   * and every channel's state loaded, the configured translation accounts created, the stored
   * channels' metric labels, the dashboard's guards and forwards, the stored responses, dedup
   * counts, the API keys (the local one generated on the first start) and the stored default
   * guards. main.ts and the tests await it before serving.
   */
  const ready: Promise<void> = (async () => {
    await channels.init();
    await translate.init();
    await Promise.all([guardRegistry.load(), forwards.load(), responses.load(), dedup.load(), apiKeys.load()]);
    relayHub.sync(apiKeys.source.keys);
    const defaults = await dashboardStore.readSetting<string[]>("default_guards");
    // The config file's default guards win over those set in the dashboard.
    if (defaults && !(await channels.defaultGuards()).read_only) await channels.setDefaultGuards(defaults);
    await watchMetrics();
    search.start();
    started = true;
  })();
  // Whoever awaits it sees a failure (main.ts exits with it); nobody else must crash on it.
  ready.catch(() => {});

  return {
    app,
    ready,
    apiKeys,
    catcher,
    relay,
    relayHub,
    listens,
    connections,
    writer,
    hooks,
    search,
    channels,
    store,
    metrics,
    metricsApp,
    dashboard,
    live,
    responses,
    dedup,
    close,
  };
}

export type App = ReturnType<typeof createApp>;
