import { Elysia } from "elysia";
import { createAlertEngine } from "../alerts/engine";
import { createIssueEvents } from "../alerts/events";
import { issueRoutes } from "../alerts/routes";
import { alertRuleRoutes } from "../alerts/rule-routes";
import { createAlertRules } from "../alerts/rule-service";
import { compileRules } from "../alerts/rules";
import { createIssues } from "../alerts/service";
import { requireApiKey } from "../hooks/auth";
import { webhookErrors } from "../hooks/errors";
import type { ManagementDeps } from "../hooks/routes/deps";
import { WHEN_CHECKS } from "../delivery/when";
import { createIdFactory } from "../lib/ids";
import type { Notify } from "../notify/notice";
import { createNotifiers, type Notifiers } from "../notify/notifiers";
import { type NotifierControls, notifierRoutes } from "../notify/routes";
import type { Base } from "./base";
import type { WebhookService } from "./webhooks";
import type { RelayService } from "./relay";

/**
 * The configured `[[notifiers]]` (notify/) over the outbox in storage: createApp's `notify` dep
 * replaces them in tests. The rules' worker sends what is queued (createAlertService).
 */
export function createNotify({ config, log, clock, storage }: Pick<Base, "config" | "log" | "clock" | "storage">): Notifiers {
  return createNotifiers(config.notifiers, { log, clock, store: storage.notices });
}

/**
 * Alerts (alerts/): the rules' engine, fed by the change sink (compose/changes.ts) and run by the
 * runner as a singleton worker (on PostgreSQL one instance at a time: storage.singleton), the
 * issues under /v1 behind the API keys, and for the dashboard behind its sessions; the rules, the
 * config file's and those made through /v1/alerts (read again on every instance when one changes).
 */
export function createAlertService(
  { config, storage, clock, log, runner }: Base,
  { webhooks, relay, notify }: { webhooks: WebhookService; relay?: RelayService; notify: Notify },
) {
  const events = createIssueEvents(notify, config.server.public_url?.base);
  const engine = createAlertEngine({
    rules: compileRules(config.alerts, WHEN_CHECKS),
    store: storage.issues,
    hooks: storage.hooks,
    getHook: (id) => storage.hooks.getHook(id),
    relays: async () => (relay ? await relay.hub.state() : []),
    // With every stored channel: default handlers' channels caught first on another instance too.
    handlers: async () => runner.handlerList(await runner.channelNames()),
    backlog: (handler) => runner.backlog(handler),
    channels: async () => [...new Set([...config.channels.map((c) => c.name), ...(await webhooks.channels.list()).map((c) => c.name)])],
    events,
    clock,
    log,
    newId: createIdFactory(clock),
  });
  const rules = createAlertRules({
    configured: config.alerts,
    store: storage.alertRules,
    issues: storage.issues,
    engine,
    notifiers: config.notifiers.map((n) => n.name),
    when: WHEN_CHECKS,
    clock,
    log,
  });
  // The stored rules are read before the first evaluation, and again whenever any instance changed them.
  const loaded = rules.load().catch((error) => log.error("alert rules could not be read", { error: String(error) }));
  storage.changes.subscribe((change) => {
    if (change.kind === "state" && change.part === "alert_rules")
      void rules.load().catch((error) => log.error("alert rules could not be read", { error: String(error) }));
  });
  // Notices given to a recorder (tests) have no notifiers to send, list or test.
  const sender = "start" in notify ? (notify as Notifiers) : undefined;
  // One lease (on PostgreSQL one instance at a time) evaluates the rules and sends the outbox's
  // notices; the sends run beside the evaluations, never holding them up.
  runner.addWorker(
    storage.singleton({
      name: engine.worker.name,
      tick: async (now) => {
        await loaded;
        const next = await engine.worker.tick(now);
        const due = sender ? await sender.start(now) : null;
        return due === null || next === null ? (due ?? next) : Math.min(next, due);
      },
    }),
  );
  // An issue event committed here or on another instance may have queued notices: the lease holder sends them now.
  if (sender && config.notifiers.length > 0)
    storage.changes.subscribe((change) => {
      if (change.kind === "issue" && change.event !== "acknowledged") runner.notify();
    });
  const issues = createIssues({ store: storage.issues, engine, clock, acknowledged: events.acknowledged });
  const controls: NotifierControls = sender ?? { names: () => [], status: async () => [], test: async () => "no such notifier" };
  const notifiers = (gates: Pick<ManagementDeps, "auth" | "admin">) =>
    notifierRoutes({ ...gates, notifiers: controls, now: () => clock.now(), publicUrl: config.server.public_url?.base });
  const auth = requireApiKey(webhooks.apiKeys.source);
  const ruleRoutes = (gates: Pick<ManagementDeps, "auth" | "admin">) => alertRuleRoutes({ ...gates, rules });
  const routes = new Elysia()
    .onError(webhookErrors(log))
    .use(new Elysia({ prefix: "/v1" }).use(issueRoutes({ auth, issues })).use(notifiers({ auth })).use(ruleRoutes({ auth })));
  return {
    engine,
    events,
    issues,
    rules,
    routes,
    /** The same routes for the dashboard, given its session gate. */
    dashboardRoutes: (management: Pick<ManagementDeps, "auth">) => issueRoutes({ auth: management.auth, issues }),
    /** The notifiers' routes for the dashboard, given its session gates (admins). */
    dashboardNotifierRoutes: notifiers,
    /** The alert rules' routes for the dashboard, given its session gates (admins). */
    dashboardRuleRoutes: ruleRoutes,
  };
}

export type AlertService = ReturnType<typeof createAlertService>;
