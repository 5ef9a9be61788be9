import type { StatePart } from "../hooks/changes";
import { connectFeed } from "../db/feed-changes";
import type { Live } from "../live";
import { createReloader } from "../lib/reloader";
import type { Base } from "./base";
import type { Contracts } from "../contracts";
import type { DeliveryService } from "./delivery";
import type { RelayService } from "./relay";
import type { WebhookService } from "./webhooks";

/**
 * Who hears of each committed change (hooks/changes.ts: one sink): the live streams, the relays,
 * metrics and the terminal; and what this instance reads again of the shared state it keeps in
 * memory when another instance changed it (the change feed) or, all of it, after the feed's
 * connection was lost.
 */
export function subscribeToChanges(
  { storage, log, runner, metrics, activity }: Base,
  {
    webhooks,
    live,
    relay,
    delivery,
    loadDefaultGuards,
    contracts,
  }: { webhooks: WebhookService; live: Live; relay: RelayService; delivery: DeliveryService; loadDefaultGuards: () => Promise<void>; contracts?: Contracts },
): void {
  const { changes } = storage;
  const { apiKeys } = webhooks;
  const reloads: Record<StatePart | "channels", () => Promise<unknown>> = {
    channels: () => webhooks.channels.reload(),
    guards: () => webhooks.guardRegistry.load(),
    forwards: () => webhooks.forwards.load(),
    responses: () => webhooks.responses.load(),
    api_keys: async () => {
      if (apiKeys.source.reload) apiKeys.source.keys = await apiKeys.source.reload();
      relay.sync();
    },
    users: async () => {},
    relays: async () => {},
    dedup: () => webhooks.dedup.load(),
    // Read from the database at each use.
    setup: async () => {},
    default_guards: loadDefaultGuards,
    paused_handlers: () => delivery.load(),
    // alerts/ reads its rules again itself, from any instance's change (compose/alerts.ts).
    alert_rules: async () => {},
  };
  const reloader = createReloader(reloads, log);

  changes.subscribe((change, origin) => {
    live.apply(change);
    // A refusal on any instance: the channel's next hooks are looked up among the refusals (marks/).
    if (change.kind === "refusal" && change.refusal.kind === "refused") webhooks.refusalMarks.refused(change.refusal.channel, change.at);
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
      relay.hub.caught(change.hooks.length);
      metrics.committed(change.hooks);
      activity.caught(change.hooks);
      // Checked after the sender was answered, one batch after another (docs/contracts.md).
      contracts?.caught(change.hooks);
      // [[tag_rules]] (docs/tags.md), likewise after the sender was answered.
      webhooks.tagRules.caught(change.hooks);
      // has:refusal (marks/), likewise after the sender was answered.
      webhooks.refusalMarks.caught(change.hooks);
    } else if (change.kind === "refusal") {
      // A handshake answered is kept with the refusals but was not refused.
      if (change.refusal.kind === "refused") metrics.refused(change.refusal.channel, change.refusal.guard);
      activity.refused(change.refusal);
    }
  });
  // Instances sharing a database tell each other what changed (SQLite has only this one).
  if (storage.dialect === "postgres") connectFeed(storage.feed, changes, () => reloader.markAll());
}
