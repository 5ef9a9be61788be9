import type { EventFactory, Fresh, Sample } from "../types";

/** Paddle Billing notifications, from developer.paddle.com/webhooks/overview (the event envelope and entities). */
const paddle = (f: Fresh, type: string, data: Record<string, unknown>): Sample => ({
  body: { event_id: f.id("evt_", 26).toLowerCase(), event_type: type, occurred_at: f.iso, notification_id: f.id("ntf_", 26).toLowerCase(), data },
});
const transaction = (f: Fresh, status: string) => ({
  id: f.id("txn_", 26).toLowerCase(),
  status,
  customer_id: f.id("ctm_", 26).toLowerCase(),
  currency_code: "USD",
  origin: "web",
  collection_mode: "automatic",
  created_at: f.iso,
  updated_at: f.iso,
  items: [{ price: { id: f.id("pri_", 26).toLowerCase(), description: "Monthly", unit_price: { amount: "3000", currency_code: "USD" } }, quantity: 1 }],
  details: { totals: { subtotal: "3000", tax: "0", total: "3000", currency_code: "USD" } },
});
export const PADDLE: Record<string, EventFactory> = {
  "transaction.completed": (f) => paddle(f, "transaction.completed", transaction(f, "completed")),
  "transaction.payment_failed": (f) => paddle(f, "transaction.payment_failed", transaction(f, "past_due")),
  "subscription.created": (f) =>
    paddle(f, "subscription.created", {
      id: f.id("sub_", 26).toLowerCase(),
      status: "active",
      customer_id: f.id("ctm_", 26).toLowerCase(),
      currency_code: "USD",
      created_at: f.iso,
      started_at: f.iso,
      billing_cycle: { interval: "month", frequency: 1 },
      items: [{ price: { id: f.id("pri_", 26).toLowerCase() }, quantity: 1, status: "active" }],
    }),
  "subscription.canceled": (f) =>
    paddle(f, "subscription.canceled", {
      id: f.id("sub_", 26).toLowerCase(),
      status: "canceled",
      customer_id: f.id("ctm_", 26).toLowerCase(),
      canceled_at: f.iso,
      currency_code: "USD",
    }),
  "customer.created": (f) =>
    paddle(f, "customer.created", {
      id: f.id("ctm_", 26).toLowerCase(),
      name: "Sam Miller",
      email: "sam@example.com",
      status: "active",
      locale: "en",
      created_at: f.iso,
      updated_at: f.iso,
      marketing_consent: false,
    }),
};

/** Linear data-change webhooks, from linear.app/developers/webhooks#the-webhook-payload. */
const linear = (f: Fresh, type: string, action: string, data: Record<string, unknown>): Sample => ({
  body: {
    action,
    type,
    actor: { id: f.uuid(), name: "Jane Doe", type: "user" },
    createdAt: f.iso,
    data: { id: f.uuid(), createdAt: f.iso, updatedAt: f.iso, ...data },
    url: "https://linear.app/example/issue/ENG-1",
    organizationId: f.uuid(),
    webhookTimestamp: f.now,
    webhookId: f.uuid(),
  },
  headers: { "linear-event": type, "linear-delivery": f.uuid() },
});
const issue = (f: Fresh) => ({
  identifier: `ENG-${f.number(3)}`,
  number: f.number(3),
  title: "Webhooks arrive twice",
  priority: 2,
  teamId: f.uuid(),
  stateId: f.uuid(),
  state: { id: f.uuid(), name: "Todo", type: "unstarted", color: "#e2e2e2" },
});
export const LINEAR: Record<string, EventFactory> = {
  "Issue.create": (f) => linear(f, "Issue", "create", issue(f)),
  "Issue.update": (f) => {
    const sample = linear(f, "Issue", "update", issue(f));
    (sample.body as Record<string, unknown>).updatedFrom = { title: "Webhooks arrive once", updatedAt: f.iso };
    return sample;
  },
  "Issue.remove": (f) => linear(f, "Issue", "remove", issue(f)),
  "Comment.create": (f) => linear(f, "Comment", "create", { body: "Looks good to me.", issueId: f.uuid(), userId: f.uuid() }),
  "Project.update": (f) => linear(f, "Project", "update", { name: "Webhook inspector", state: "started", progress: 0.4 }),
  "IssueLabel.create": (f) => linear(f, "IssueLabel", "create", { name: "bug", color: "#eb5757" }),
};
