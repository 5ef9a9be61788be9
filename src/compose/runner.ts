import { createDelivery } from "../delivery";
import { createRetention } from "../hooks/retention";
import type { Base } from "./base";
import type { TranslateService } from "./translate";
import type { WebhookService } from "./webhooks";

/**
 * The handler runner given what it works on: the hook service's outcomes and reads, and the
 * workers (the simulated translator and retention, on one instance at a time among those sharing
 * the database; dedup's expiry).
 */
export function connectRunner(
  { config, storage, log, runner, clock, metrics }: Base,
  { webhooks, translate }: { webhooks: WebhookService; translate: TranslateService },
): void {
  const { hooks, dedup, store } = webhooks;
  runner.bind(hooks.outcomes, { raw: hooks.raw, rawMany: hooks.rawMany });
  runner.useDelivery(createDelivery({ config, clock, counts: metrics }));
  if (translate.worker) runner.addWorker(storage.singleton(translate.worker));
  runner.addWorker(storage.singleton(createRetention({ config, store, log })));
  runner.addWorker(dedup.worker);
}
