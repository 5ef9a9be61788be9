import { Elysia } from "elysia";
import { refuseScopedKey } from "../hooks/auth";
import { webhookErrors } from "../hooks/errors";
import { metricsRoutes } from "../metrics/routes";
import type { Base } from "./base";
import type { RelayService } from "./relay";
import type { WebhookService } from "./webhooks";

/**
 * /metrics, on the main listener or on its own ([metrics] listen, which main.ts serves), in the
 * management API's error format; and what the gauges read.
 */
export function createMetricsService({ config, log, runner, metrics }: Base, { webhooks, relay }: { webhooks: WebhookService; relay: RelayService }) {
  const { apiKeys, store, dedup } = webhooks;
  const keys = config.metrics.auth ? apiKeys.source : undefined;
  const errors = webhookErrors(log);
  const own = config.metrics.enabled && config.metrics.listen;
  return {
    /** The route on the main listener, when metrics are on and not on their own. */
    routes: config.metrics.enabled && !own ? new Elysia().onError(errors).use(metricsRoutes(metrics, keys)) : undefined,
    /** The app of their own listener, with the same error body. */
    app: own
      ? new Elysia({ normalize: false })
          .onError(errors)
          // As on the main listener: a relay key gets 403, even where metrics need no key.
          .onRequest(({ request }) => void (request.headers.has("authorization") && refuseScopedKey(apiKeys.source, request, () => false)))
          .use(metricsRoutes(metrics, keys))
      : undefined,
    /** Start-up: the gauges read from here on (the channels' labels are read now). */
    watch: () =>
      metrics.watch({
        channels: () => store.channelsOldestFirst(),
        storageBytes: () => store.storageBytes(),
        queueDepth: () => runner.queueDepth(),
        deduplicated: () => dedup.droppedCounts(),
        relays: relay.state,
      }),
  };
}
