import { Elysia } from "elysia";
import type { Config } from "./config/schema";
import type { Db } from "./db/open";
import type { Clock } from "./lib/clock";
import type { Log } from "./lib/log";
import { createIdFactory } from "./lib/ids";
import type { Runner } from "./runner";
import { createHookStore } from "./hooks/store";
import { createChannelService } from "./hooks/channels";
import { createHookService } from "./hooks/service";
import { createBatchWriter } from "./hooks/writer";
import { createWalSync } from "./db/wal-sync";
import { createCatcher } from "./hooks/catch";
import { createResponses } from "./hooks/responses";
import { createDedup } from "./hooks/dedup";
import { createRetention } from "./hooks/retention";
import { hooksErrorResponse } from "./hooks/errors";
import { managementRoutes } from "./hooks/routes";
import type { ApiKey } from "./hooks/auth";
import { createGuards, createRefusals } from "./hooks/guards";
import { createTranslate } from "./translate";
import { openapiRoutes } from "./openapi";
import type { RouteInfo } from "./openapi/generate";

export type AppDeps = {
  config: Config;
  db: Db;
  clock: Clock;
  log: Log;
  runner: Runner;
  apiKeys: ApiKey[];
  /** How the WAL is fdatasynced for durability "full" (tests hold it back); node:fs by default. */
  syncWal?: () => Promise<void>;
  /** Hooks per transaction when a channel is deleted (tests shrink it); CHANNEL_DELETE_BATCH by default. */
  channelDeleteBatch?: number;
};

/**
 * Composes both services on one Elysia instance. Never listens and never reads the environment:
 * main.ts and the tests hand it everything.
 */
export function createApp(deps: AppDeps) {
  const { config, db, clock, log, runner } = deps;
  const store = createHookStore(db);
  const channels = createChannelService({ config, store, clock, runner, deleteBatch: deps.channelDeleteBatch });
  const hooks = createHookService({ store, clock, runner });
  runner.bind(hooks.outcomes, { raw: hooks.raw });

  // With durability "full", caught hooks are committed without waiting for the disk and the WAL
  // is then synced off the event loop, for whole groups of batches at once, before anyone is answered.
  const walSync =
    config.storage.durability === "full" && config.storage.path !== ":memory:" ? createWalSync(`${config.storage.path}-wal`, deps.syncWal) : undefined;
  const transaction = walSync ? store.transactionUnsynced : store.transaction;
  const responses = createResponses({ config, db, clock });
  const dedup = createDedup({ config, db, clock });
  const writer = createBatchWriter({
    batchMax: config.storage.batch_max,
    commit(batch) {
      const queued = transaction(() => {
        store.insertHooks(batch, channels.guardsForNew);
        dedup.record(batch);
        return runner.queueCaught(batch);
      });
      // Only hooks with handlers give the runner new work (retention and the simulator poll on
      // their own), and only once the batch is durable: no handler sees a hook a crash could lose.
      return queued ? () => runner.notify() : undefined;
    },
    durable: walSync ? () => walSync.sync() : undefined,
  });
  const guards = createGuards(config.guards, { clock, log });
  const refusals = createRefusals({ db, clock });
  const catcher = createCatcher({ config, channels, guards, refusals, writer, nextId: createIdFactory(clock), clock, log, responses, dedup });

  const translate = createTranslate({ config, db, clock, log });
  if (translate.worker) runner.addWorker(translate.worker);
  runner.addWorker(createRetention({ config, store, log }));
  runner.addWorker(dedup.worker);

  // standardHostname off: Elysia would otherwise skip 11 characters of the URL to find the path, which a
  // Host of three characters or fewer ("x", "api") defeats: requests were routed by a shifted path.
  const app = new Elysia({ normalize: false, handler: { standardHostname: false } })
    .onError(({ error, code, request }) => {
      const path = new URL(request.url).pathname;
      if (translate.isTranslatePath(path)) return translate.errorResponse(error, code);
      return hooksErrorResponse(error, code, log, request, methodsOf);
    })
    .all("/", ({ request, server }) => catcher.handle(request, server?.requestIP(request)?.address ?? ""), { parse: "none" })
    .use(managementRoutes(deps.apiKeys, { channels, hooks, refusals, runner, db, clock, responses, dedup }))
    .use(translate.routes)
    .use(openapiRoutes(allRoutes));

  /** The whole route table, for the OpenAPI documents (read on their first request, when it is complete). */
  function allRoutes(): readonly RouteInfo[] {
    return app.routes;
  }

  /** The management routes as patterns, built on first use (the app is complete by then). */
  let routeTable: { pattern: RegExp; method: string }[] | undefined;
  /** Methods with a management route on this path (GET also allows HEAD). */
  function methodsOf(path: string): string[] {
    routeTable ??= app.routes
      .filter((r) => r.method !== "ALL" && r.path.startsWith("/v1/") && !translate.isTranslatePath(r.path))
      .map((r) => ({ method: r.method, pattern: new RegExp(`^${r.path.replace(/:[^/]+/g, "[^/]+")}$`) }));
    const methods = routeTable.filter((r) => r.pattern.test(path)).map((r) => r.method);
    if (methods.includes("GET")) methods.push("HEAD");
    return [...new Set(methods)];
  }

  /** Waits until every caught hook is committed and on disk. */
  async function close(): Promise<void> {
    await writer.drain();
    walSync?.close();
  }

  return { app, catcher, writer, hooks, channels, store, responses, dedup, close };
}

export type App = ReturnType<typeof createApp>;
