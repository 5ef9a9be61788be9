import { Elysia } from "elysia";
import type { Config } from "./config/schema";
import type { Db } from "./db/open";
import type { Clock } from "./lib/clock";
import type { Log } from "./lib/log";
import { silentActivity, type Activity } from "./lib/terminal";
import { createIdFactory } from "./lib/ids";
import type { Runner } from "./runner";
import { createHookStore } from "./hooks/store";
import { createChannelService } from "./hooks/channels";
import { createHookService } from "./hooks/service";
import { createBatchWriter } from "./hooks/writer";
import { createWalSync } from "./db/wal-sync";
import { createCatcher } from "./hooks/catch";
import { createRetention } from "./hooks/retention";
import { hooksErrorResponse } from "./hooks/errors";
import { managementRoutes } from "./hooks/routes";
import { LOCAL_KEY, storedApiKeys, type ApiKey } from "./hooks/auth";
import { createGuards, createRefusals } from "./hooks/guards";
import { createTranslate } from "./translate";

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
  /** The live terminal's caught and refused lines (silent by default). */
  activity?: Activity;
};

/**
 * Composes both services on one Elysia instance. Never listens and never reads the environment:
 * main.ts and the tests hand it everything.
 */
export function createApp(deps: AppDeps) {
  const { config, db, clock, log, runner } = deps;
  const activity = deps.activity ?? silentActivity;
  const store = createHookStore(db);
  const channels = createChannelService({ config, store, clock, runner, deleteBatch: deps.channelDeleteBatch });
  const hooks = createHookService({ store, clock, runner });
  runner.bind(hooks.outcomes, { raw: hooks.raw });

  // With durability "full", caught hooks are committed without waiting for the disk and the WAL
  // is then synced off the event loop, for whole groups of batches at once, before anyone is answered.
  const walSync =
    config.storage.durability === "full" && config.storage.path !== ":memory:" ? createWalSync(`${config.storage.path}-wal`, deps.syncWal) : undefined;
  const transaction = walSync ? store.transactionUnsynced : store.transaction;
  const writer = createBatchWriter({
    batchMax: config.storage.batch_max,
    commit(batch) {
      const queued = transaction(() => {
        store.insertHooks(batch, channels.guardsForNew);
        return runner.queueCaught(batch);
      });
      // Only hooks with handlers give the runner new work (retention and the simulator poll on
      // their own), and only once the batch is durable: no handler sees a hook a crash could lose.
      // The terminal gets one write per batch, off the per-hook path.
      return () => {
        if (queued) runner.notify();
        activity.caught(batch);
      };
    },
    durable: walSync ? () => walSync.sync() : undefined,
  });
  const guards = createGuards(config.guards, { clock, log });
  const recorded = createRefusals({ db, clock });
  const refusals: typeof recorded = { ...recorded, record: (r) => (recorded.record(r), activity.refused(r)) };
  const catcher = createCatcher({ config, channels, guards, refusals, writer, nextId: createIdFactory(clock), clock, log });

  const translate = createTranslate({ config, db, clock, log });
  if (translate.worker) runner.addWorker(translate.worker);
  runner.addWorker(createRetention({ config, store, log }));

  // standardHostname off: Elysia would otherwise skip 11 characters of the URL to find the path, which a
  // Host of three characters or fewer ("x", "api") defeats: requests were routed by a shifted path.
  const app = new Elysia({ normalize: false, handler: { standardHostname: false } })
    .onError(({ error, code, request }) => {
      const path = new URL(request.url).pathname;
      if (translate.isTranslatePath(path)) return translate.errorResponse(error, code);
      return hooksErrorResponse(error, code, log, request, methodsOf);
    })
    .all("/", ({ request, server }) => catcher.handle(request, server?.requestIP(request)?.address ?? ""), { parse: "none" })
    .use(managementRoutes({ keys: deps.apiKeys, reload: () => [...configuredKeys(deps.apiKeys), ...storedApiKeys(db)] }, { channels, hooks, refusals, runner, db, clock }))
    .use(translate.routes);

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

  return { app, catcher, writer, hooks, channels, store, close };
}

/** The keys that did not come from the database (the config's): kept when the stored ones are read again. */
function configuredKeys(keys: readonly ApiKey[]): ApiKey[] {
  return keys.filter((k) => k.label !== LOCAL_KEY);
}

export type App = ReturnType<typeof createApp>;
