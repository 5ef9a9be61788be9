import { createDiagnose } from "../diagnose/diagnose";
import { Elysia } from "elysia";
import { createDedup } from "../dedup/index";
import { createForwards } from "../forwards/index";
import { WHEN_CHECKS } from "../delivery/when";
import { createApiKeys } from "../hooks/api-keys";
import { createCatcher } from "../hooks/catch";
import { createChannelService } from "../hooks/channels";
import { webhookErrors } from "../hooks/errors";
import { createGuardRegistry } from "../hooks/guard-registry";
import { createGuards, createRefusals } from "../hooks/guards";
import { channelRoutes } from "../hooks/routes/channels";
import { hookRoutes } from "../hooks/routes/hooks";
import { refusalRoutes } from "../hooks/routes/refusals";
import { requireApiKey } from "../hooks/auth";
import { responseRoutes } from "../responses/routes";
import { dedupRoutes } from "../dedup/routes";
import { exportRoutes, importRoutes } from "../transfer/routes";
import { sendRoutes } from "../transfer/send-routes";
import { fixtureRoutes } from "../fixtures/routes";
import { attemptRoutes } from "../runner/routes";
import { hookSearch } from "../search";
import type { SharedRouteDeps } from "../dashboard";
import { createHookService } from "../hooks/service";
import { type ContractSubject, schemaApplies } from "../contracts/check";
import { contractReader } from "../contracts/wire";
import { createBatchWriter } from "../hooks/writer";
import { createIdFactory } from "../lib/ids";
import { timedCatcher } from "../metrics/instrument";
import { createResponses } from "../responses/index";
import { createTransfer } from "../transfer";
import { createRefusalMarks } from "../marks";
import { createTagRules, createTags } from "../tags";
import { tagRoutes } from "../tags/routes";
import type { Base } from "./base";
import type { SearchService } from "./search";

/**
 * The webhook service: catching (`/`: guards, custom responses, dedup, the batched writer) and
 * the management API under /v1 behind the API keys, each with its own error handler. Also what
 * the other services share of it: the channels, hooks, API keys, guards and forwards.
 */
export function createWebhookService(base: Base, { search, channelDeleteBatch }: { search: SearchService; channelDeleteBatch?: number }) {
  const { config, storage, clock, log, runner, metrics } = base;
  const { changes } = storage;
  const store = storage.hooks;
  const channels = createChannelService({ config, store, clock, runner, deleteBatch: channelDeleteBatch });
  const own = config.channelSchemas ?? {};
  const applies = config.contracts.enabled ? (h: ContractSubject) => schemaApplies(own[h.channel], h) : undefined;
  const contracts = contractReader(storage.contracts, applies);
  const hooks = createHookService({ store, clock, runner, contracts, tags: storage.tags, durable: storage.durable });
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
      return (kept) => {
        if (queued) runner.notify();
        changes.emit({ kind: "caught", hooks: kept });
      };
    },
    durable: storage.durable,
    // A hook whose sender left before its answer (a pipelined request closed the connection) is
    // taken back, unless it carries a delivery id: the sender's retry is then answered with its id.
    async retract(lost) {
      const ids = lost.filter((h) => h.deliveryId === undefined).map((h) => h.id);
      if (ids.length > 0) await store.transaction(() => store.retractCaught(ids));
      return ids;
    },
    // One line per batch: when many connections close at once (a load's end), not one per hook.
    gone(hooks) {
      const names = [...new Set(hooks.map((h) => h.channel))];
      log.warn(
        `${hooks.length === 1 ? "1 hook" : `${hooks.length} hooks`} not stored: the connection closed before it was committed (a pipelined request, or the sender gave up)`,
        { hooks: hooks.length, channels: names.length > 5 ? `${names.slice(0, 5).join(", ")} and ${names.length - 5} more` : names.join(", ") },
      );
    },
    lanes: storage.commitLanes,
    log,
  });
  const nextId = createIdFactory(clock);
  const transfer = createTransfer({ store: storage.transfer, hooks: store, channels, search, runner, clock, nextId, contracts, tags: storage.tags });
  const guards = createGuards(config.guards, { clock, log, publicUrl: config.server.public_url?.base });
  // Guards defined in the dashboard join the same map; a change makes the catcher plan again.
  const guardRegistry = createGuardRegistry({ config, store: storage.guards, clock, log, guards, changed: () => catcher.invalidatePlans() });
  // A refusal is stored, counted, printed and streamed: its observers in one place.
  // Each signature refusal's diagnosis is worked out after its answer, before it is written (diagnose/).
  const diagnose = createDiagnose({ guards: () => guards.values(), clock });
  // A refusal is streamed again, with the same id, once its diagnosis is known.
  const stored = createRefusals({
    store: storage.refusals,
    clock,
    diagnose,
    diagnosed: (r) => changes.emit({ kind: "refusal", refusal: r, at: r.createdAt }),
    deliveryId: dedup.deliveryIdOf,
  });
  const refusals: typeof stored = {
    ...stored,
    record(r) {
      stored.record(r);
      // Without the request the diagnosis is made from: it is never streamed or sent to the feed.
      const { request: _, ...shown } = r;
      changes.emit({ kind: "refusal", refusal: shown, at: clock.now() });
    },
  };
  const catcher = timedCatcher(createCatcher({ config, channels, guards, refusals, writer, nextId, log, responses, dedup }), metrics);

  /** Lifts a connection's idle timeout for one request; serve() sets it (app.handle has no connection). */
  const connections = { keepOpen: (_request: Request): void => {} };
  // One live set of API keys for every bearer route: a key created or revoked in the dashboard
  // works, or stops working, on the next request.
  const apiKeys = createApiKeys({ config, store: storage.apiKeys, clock });
  const forwards = createForwards({ config, store: storage.forwards, clock, runner, when: WHEN_CHECKS });
  // What the management routes are given, once: the API mounts them behind its keys, the dashboard behind its sessions.
  const channelCounts = async () => new Map((await store.listChannels()).map((c) => [c.name, Object.values(c.stats).reduce((a, b) => a + b, 0)]));
  const tags = createTags({ store: storage.tags, reads: storage.reads, hooks, clock, channelCounts });
  const tagRules = createTagRules({ rules: config.tag_rules, store: storage.tags, clock, log });
  // has:refusal: caught hooks whose delivery was refused before, marked after the catch (marks/).
  const refusalMarks = createRefusalMarks({ store: storage.marks, deliveryId: dedup.deliveryIdOf, flushRefusals: () => stored.flush(), clock, log });
  const management: SharedRouteDeps = {
    tags,
    channels,
    hooks,
    search: hookSearch(search),
    transfer,
    refusals,
    runner,
    clock,
    keepOpen: (r) => connections.keepOpen(r),
    responses,
    dedup,
    onChannelDeleted: [(name) => responses.forget(name), (name) => dedup.forget(name)],
    allowLinkLocal: config.server.allow_link_local,
    fixtures: config.fixtures,
  };
  // The management API under /v1: hooks' routes and those of the services built on hooks, each
  // behind an API key (a test walks every /v1 route of the app and checks it answers 401 without one).
  const api = { ...management, auth: requireApiKey(apiKeys.source) };
  const managementApi = new Elysia({ prefix: "/v1" })
    .use(channelRoutes(api))
    .use(responseRoutes(api))
    .use(dedupRoutes(api))
    .use(exportRoutes(api))
    .use(importRoutes(api))
    .use(hookRoutes(api))
    .use(sendRoutes(api))
    .use(fixtureRoutes(api))
    .use(refusalRoutes(api))
    .use(attemptRoutes(api))
    .use(tagRoutes(api));

  const errors = webhookErrors(log);
  const routes = new Elysia()
    .use(new Elysia().onError(errors).all("/", ({ request, server }) => catcher.handle(request, server?.requestIP(request)?.address ?? ""), { parse: "none" }))
    .use(new Elysia().onError(errors).use(managementApi));

  return {
    store,
    channels,
    hooks,
    search,
    responses,
    dedup,
    writer,
    guardRegistry,
    catcher,
    connections,
    apiKeys,
    forwards,
    management,
    routes,
    /** Hooks' tags and read marks (tags/), and the `[[tag_rules]]` fed with caught batches. */
    tags,
    tagRules,
    /** Hooks marked `refusal` after their catch (marks/), fed with caught batches and refusals. */
    refusalMarks,
    /** Start-up's first read: the configured channels declared and every channel's state loaded. */
    init: () => channels.init(),
    /** Start-up's reads after the channels: guards, forwards and responses of the dashboard, dedup counts, the API keys. */
    load: () => Promise.all([guardRegistry.load(), forwards.load(), responses.load(), dedup.load(), apiKeys.load(), refusalMarks.load()]),
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
