import { Elysia } from "elysia";
import { requireApiKey, type ApiKey, type KeySource } from "../hooks/auth";
import { NoQuery } from "../hooks/model";
import { CONTENT_TYPE, type Metrics } from ".";

/**
 * GET /metrics in the Prometheus text format. With `keys`, it asks for a management API token like
 * every /v1 route (401 and the webhook API's error body without one); without, it is open.
 */
export function metricsRoutes(metrics: Metrics, keys: readonly ApiKey[] | KeySource | undefined) {
  const scrape = async () => new Response(await metrics.render(), { headers: { "content-type": CONTENT_TYPE } });
  if (!keys) return new Elysia().get("/metrics", scrape, { query: NoQuery });
  return new Elysia().use(requireApiKey(keys)).get("/metrics", scrape, { query: NoQuery });
}
