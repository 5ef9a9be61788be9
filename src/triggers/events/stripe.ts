import type { EventFactory, Fresh } from "../types";

/** Stripe events (the Event object, API version 2024-06-20), from docs.stripe.com/api/events/object. */
function event(f: Fresh, type: string, object: Record<string, unknown>): { body: unknown } {
  return {
    body: {
      id: f.id("evt_"),
      object: "event",
      api_version: "2024-06-20",
      created: f.unix,
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: f.id("req_", 14), idempotency_key: f.uuid() },
      type,
    },
  };
}

const customer = (f: Fresh) => ({
  id: f.id("cus_", 14),
  object: "customer",
  created: f.unix,
  email: "jenny.rosen@example.com",
  name: "Jenny Rosen",
  currency: null,
  livemode: false,
  metadata: {},
});

const paymentIntent = (f: Fresh, status: string) => ({
  id: f.id("pi_"),
  object: "payment_intent",
  amount: 2000,
  amount_received: status === "succeeded" ? 2000 : 0,
  currency: "usd",
  created: f.unix,
  customer: f.id("cus_", 14),
  livemode: false,
  metadata: {},
  payment_method: f.id("pm_"),
  payment_method_types: ["card"],
  status,
});

export const STRIPE: Record<string, EventFactory> = {
  "customer.created": (f) => event(f, "customer.created", customer(f)),
  "payment_intent.succeeded": (f) => event(f, "payment_intent.succeeded", paymentIntent(f, "succeeded")),
  "payment_intent.payment_failed": (f) =>
    event(f, "payment_intent.payment_failed", {
      ...paymentIntent(f, "requires_payment_method"),
      last_payment_error: { code: "card_declined", decline_code: "generic_decline", message: "Your card was declined.", type: "card_error" },
    }),
  "checkout.session.completed": (f) =>
    event(f, "checkout.session.completed", {
      id: f.id("cs_test_", 40),
      object: "checkout.session",
      amount_subtotal: 2000,
      amount_total: 2000,
      created: f.unix,
      currency: "usd",
      customer: f.id("cus_", 14),
      customer_details: { email: "jenny.rosen@example.com", name: "Jenny Rosen" },
      livemode: false,
      mode: "payment",
      payment_intent: f.id("pi_"),
      payment_status: "paid",
      status: "complete",
    }),
  "invoice.paid": (f) =>
    event(f, "invoice.paid", {
      id: f.id("in_"),
      object: "invoice",
      amount_due: 2000,
      amount_paid: 2000,
      amount_remaining: 0,
      billing_reason: "subscription_cycle",
      created: f.unix,
      currency: "usd",
      customer: f.id("cus_", 14),
      livemode: false,
      paid: true,
      status: "paid",
      subscription: f.id("sub_"),
    }),
  "customer.subscription.created": (f) =>
    event(f, "customer.subscription.created", {
      id: f.id("sub_"),
      object: "subscription",
      created: f.unix,
      current_period_start: f.unix,
      current_period_end: f.unix + 30 * 86400,
      customer: f.id("cus_", 14),
      items: {
        object: "list",
        data: [
          {
            id: f.id("si_", 14),
            object: "subscription_item",
            price: { id: f.id("price_"), object: "price", currency: "usd", unit_amount: 2000, recurring: { interval: "month", interval_count: 1 } },
            quantity: 1,
          },
        ],
      },
      livemode: false,
      status: "active",
    }),
  "charge.refunded": (f) =>
    event(f, "charge.refunded", {
      id: f.id("ch_"),
      object: "charge",
      amount: 2000,
      amount_refunded: 2000,
      currency: "usd",
      created: f.unix,
      livemode: false,
      paid: true,
      refunded: true,
      status: "succeeded",
    }),
};
