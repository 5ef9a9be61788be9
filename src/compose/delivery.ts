import { Elysia } from "elysia";
import { createControls } from "../delivery/controls";
import { handlerControlRoutes } from "../delivery/handler-routes";
import { requireApiKey } from "../hooks/auth";
import { webhookErrors } from "../hooks/errors";
import type { ManagementDeps } from "../hooks/routes/deps";
import type { Base } from "./base";
import type { WebhookService } from "./webhooks";

/**
 * Delivery controls (delivery/): pause and resume, each handler's rate and circuit breaker. Handed
 * to the runner as its gate; the paused handlers are kept in the dashboard's settings (a restart
 * keeps them, other instances read them again on the state change); the routes under /v1 behind
 * the API keys, and for the dashboard behind its sessions (`dashboardRoutes`).
 */
export function createDeliveryService({ storage, clock, log, runner, metrics }: Base, { webhooks }: { webhooks: WebhookService }) {
  const settings = storage.dashboard;
  const controls = createControls({
    runner,
    paused: {
      read: () => settings.readSetting<string[]>("paused_handlers"),
      update: (change) => settings.updateSetting<string[]>("paused_handlers", change),
    },
    clock,
    log,
    onBreaker: (handler, state, detail) => {
      metrics.breaker(handler, state);
      // The stream's handler.breaker_open / _half_open / _closed (docs/delivery.md).
      const channels = runner.handlerList().find((e) => e.handler.name === handler)?.channels ?? [];
      storage.changes.emit({ kind: "breaker", handler, state, ...detail, channels });
    },
  });
  runner.control(controls.gate);
  metrics.watchHandlers(() => controls.states());
  const api = { auth: requireApiKey(webhooks.apiKeys.source), controls };
  const routes = new Elysia().onError(webhookErrors(log)).use(new Elysia({ prefix: "/v1" }).use(handlerControlRoutes(api)));
  return {
    controls,
    routes,
    /** The same routes for the dashboard, given its session gates. */
    dashboardRoutes: (management: Pick<ManagementDeps, "auth" | "admin">) => handlerControlRoutes({ ...management, controls }),
    /** Start-up's read of the paused handlers (before it, no attempt starts). */
    load: () => controls.load(),
  };
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;
