import { Elysia } from "elysia";
import { createDashboard } from "../dashboard";
import { webhookErrors } from "../hooks/errors";
import type { Live } from "../live";
import type { Base } from "./base";
import type { DeliveryService } from "./delivery";
import type { AlertService } from "./alerts";
import type { BulkService } from "./bulk";
import type { RelayService } from "./relay";
import type { TranslateService } from "./translate";
import type { WebhookService } from "./webhooks";

/**
 * The dashboard's server side: its API under /ui/api, behind sessions, with its own error
 * handler (the management API's format: it mounts the same routes), and the default guards set
 * in it.
 */
export function createDashboardService(
  { config, storage, clock, log }: Base,
  {
    webhooks,
    live,
    translate,
    relay,
    delivery,
    alerts,
    bulk,
  }: {
    webhooks: WebhookService;
    live: Live;
    translate: TranslateService;
    relay: RelayService;
    delivery: DeliveryService;
    alerts: AlertService;
    bulk?: BulkService;
  },
) {
  const store = storage.dashboard;
  const dashboard = createDashboard({
    config,
    store,
    clock,
    live,
    apiKeys: webhooks.apiKeys,
    guards: webhooks.guardRegistry,
    forwards: webhooks.forwards,
    translate: translate.services,
    management: webhooks.management,
    relays: () => relay.state(),
    handlerControls: delivery.dashboardRoutes,
    issueRoutes: alerts.dashboardRoutes,
    notifierRoutes: alerts.dashboardNotifierRoutes,
    alertRuleRoutes: alerts.dashboardRuleRoutes,
    bulkActions: bulk?.dashboardRoutes,
  });
  const routes = new Elysia().onError(webhookErrors(log)).use(dashboard.routes);

  /** Applies the default guards set in the dashboard; the config file's, when it sets them, win. */
  async function loadDefaultGuards(): Promise<void> {
    const defaults = await store.readSetting<string[]>("default_guards");
    const { channels } = webhooks;
    if (defaults && !(await channels.defaultGuards()).read_only) await channels.setDefaultGuards(defaults);
  }

  return { dashboard, routes, loadDefaultGuards };
}
