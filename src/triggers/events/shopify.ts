import type { EventFactory, Fresh, Sample } from "../types";

/** Shopify webhook topics (REST Admin API 2024-07 payloads), from shopify.dev/docs/api/webhooks. */
function topic(f: Fresh, name: string, body: unknown): Sample {
  return {
    body,
    headers: {
      "x-shopify-topic": name,
      "x-shopify-shop-domain": "example-shop.myshopify.com",
      "x-shopify-api-version": "2024-07",
      "x-shopify-webhook-id": f.uuid(),
      "x-shopify-event-id": f.uuid(),
      "x-shopify-triggered-at": f.iso,
    },
  };
}

const order = (f: Fresh, financial: string) => ({
  id: f.number(12),
  admin_graphql_api_id: `gid://shopify/Order/${f.number(12)}`,
  name: `#${1000 + f.number(3)}`,
  order_number: 1000 + f.number(3),
  email: "jon@example.com",
  created_at: f.iso,
  updated_at: f.iso,
  currency: "USD",
  financial_status: financial,
  fulfillment_status: null,
  subtotal_price: "199.00",
  total_price: "209.00",
  total_tax: "10.00",
  line_items: [
    { id: f.number(12), product_id: f.number(12), variant_id: f.number(12), title: "IPod Nano - 8GB", quantity: 1, price: "199.00", sku: "IPOD2008PINK" },
  ],
  customer: { id: f.number(12), email: "jon@example.com", first_name: "Jon", last_name: "Doe" },
});

export const SHOPIFY: Record<string, EventFactory> = {
  "orders/create": (f) => topic(f, "orders/create", order(f, "pending")),
  "orders/paid": (f) => topic(f, "orders/paid", order(f, "paid")),
  "orders/cancelled": (f) => topic(f, "orders/cancelled", { ...order(f, "voided"), cancelled_at: f.iso, cancel_reason: "customer" }),
  "products/create": (f) =>
    topic(f, "products/create", {
      id: f.number(12),
      title: "Example T-Shirt",
      body_html: "A soft cotton shirt.",
      vendor: "Acme",
      product_type: "Shirts",
      created_at: f.iso,
      handle: "example-t-shirt",
      status: "active",
      variants: [{ id: f.number(12), title: "Default Title", price: "19.99", sku: "TSHIRT-1", inventory_quantity: 10 }],
    }),
  "customers/create": (f) =>
    topic(f, "customers/create", {
      id: f.number(12),
      email: "bob@example.com",
      first_name: "Bob",
      last_name: "Norman",
      created_at: f.iso,
      state: "enabled",
      verified_email: true,
      currency: "USD",
    }),
  "app/uninstalled": (f) =>
    topic(f, "app/uninstalled", {
      id: f.number(12),
      name: "Example Shop",
      email: "owner@example.com",
      domain: "example-shop.myshopify.com",
      myshopify_domain: "example-shop.myshopify.com",
    }),
};
