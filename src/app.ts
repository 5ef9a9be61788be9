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
import { createCatcher } from "./hooks/catch";
import { createRetention } from "./hooks/retention";
import { hooksErrorResponse } from "./hooks/errors";
import { managementRoutes } from "./hooks/routes";
import type { ApiKey } from "./hooks/auth";
import { createGuards, createRefusals } from "./hooks/guards";
import { createTranslate } from "./translate";

export type AppDeps = {
  config: Config;
  db: Db;
  clock: Clock;
  log: Log;
  runner: Runner;
  apiKeys: ApiKey[];
};

/**
 * Composes both services on one Elysia instance. Never listens and never reads the environment:
 * main.ts and the tests hand it everything.
 */
export function createApp(deps: AppDeps) {
  const { config, db, clock, log, runner } = deps;
  const store = createHookStore(db);
  const channels = createChannelService({ config, store, clock });
  const hooks = createHookService({ store, clock, runner });
  runner.bind(hooks.outcomes, { raw: hooks.raw });

  const writer = createBatchWriter({
    batchMax: config.storage.batch_max,
    commit(batch) {
      store.transaction(() => {
        store.insertHooks(batch, channels.guardsForNew);
        runner.queueCaught(batch);
      });
    },
    afterCommit: () => runner.notify(),
  });
  const guards = createGuards(config.guards, { clock });
  const refusals = createRefusals({ db, clock });
  const catcher = createCatcher({ config, channels, guards, refusals, writer, nextId: createIdFactory(clock), clock, log });

  const translate = createTranslate({ config, db, clock, log });
  if (translate.worker) runner.addWorker(translate.worker);
  runner.addWorker(createRetention({ config, db, log }));

  const app = new Elysia({ normalize: false })
    .onError(({ error, code, request }) => {
      const path = new URL(request.url).pathname;
      if (translate.isTranslatePath(path)) return translate.errorResponse(error, code);
      return hooksErrorResponse(error, code, log, request);
    })
    .all("/", ({ request, server }) => catcher.handle(request, server?.requestIP(request)?.address ?? ""), { parse: "none" })
    .use(managementRoutes(deps.apiKeys, { channels, hooks, refusals, runner, db, clock }))
    .use(translate.routes);

  return { app, catcher, writer, hooks, channels, store };
}

export type App = ReturnType<typeof createApp>;
