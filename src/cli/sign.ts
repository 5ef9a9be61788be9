import { createHmac } from "node:crypto";

/**
 * Signs a test hook as each provider does, so a guard of that kind accepts it:
 *
 * - github: `X-Hub-Signature-256: sha256=<hex HMAC of the body>`, with X-GitHub-Event and X-GitHub-Delivery
 * - stripe: `Stripe-Signature: t=<unix>,v1=<hex HMAC of "t.body">` (the whsec_ secret is the key as written)
 * - standard-webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC of "id.ts.body">`,
 *   the key being the base64 after `whsec_`
 * - shopify: `X-Shopify-Hmac-Sha256: <base64 HMAC of the body>`
 * - slack: `X-Slack-Request-Timestamp`, `X-Slack-Signature: v0=<hex HMAC of "v0:ts:body">`
 */
export const PROVIDERS = ["github", "stripe", "standard-webhooks", "shopify", "slack"] as const;
export type Provider = (typeof PROVIDERS)[number];

const hmac = (key: string | Buffer, ...parts: (string | Uint8Array)[]) => {
  const h = createHmac("sha256", key);
  for (const p of parts) h.update(p);
  return h.digest();
};

/** Throws Error when the secret cannot be a key of that provider (standard-webhooks wants base64). */
export function signHeaders(provider: Provider, secret: string, body: Uint8Array, now = Date.now()): Record<string, string> {
  const ts = String(Math.floor(now / 1000));
  switch (provider) {
    case "github":
      return {
        "x-hub-signature-256": `sha256=${hmac(secret, body).toString("hex")}`,
        "x-github-event": "ping",
        "x-github-delivery": crypto.randomUUID(),
      };
    case "stripe":
      return { "stripe-signature": `t=${ts},v1=${hmac(secret, `${ts}.`, body).toString("hex")}` };
    case "standard-webhooks": {
      const text = secret.startsWith("whsec_") ? secret.slice(6) : secret;
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) throw new Error('--secret: a standard-webhooks secret is "whsec_" followed by base64');
      const id = `msg_${crypto.randomUUID().replaceAll("-", "")}`;
      const sig = hmac(Buffer.from(text, "base64"), `${id}.${ts}.`, body).toString("base64");
      return { "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": `v1,${sig}` };
    }
    case "shopify":
      return { "x-shopify-hmac-sha256": hmac(secret, body).toString("base64"), "x-shopify-topic": "app/test" };
    case "slack":
      return { "x-slack-request-timestamp": ts, "x-slack-signature": `v0=${hmac(secret, `v0:${ts}:`, body).toString("hex")}` };
  }
}

/**
 * The age in seconds of a timestamped signature among these headers (Stripe's t=, Standard
 * Webhooks' or Svix's timestamp, Slack's), or undefined when none is timestamped.
 */
export function signatureAge(headers: Record<string, string>, now = Date.now()): { header: string; seconds: number } | undefined {
  const stripe = /(?:^|,)\s*t=(\d+)/.exec(headers["stripe-signature"] ?? "")?.[1];
  const candidates: [string, string | undefined][] = [
    ["stripe-signature", stripe],
    ["webhook-timestamp", headers["webhook-timestamp"]],
    ["svix-timestamp", headers["svix-timestamp"]],
    ["x-slack-request-timestamp", headers["x-slack-request-timestamp"]],
  ];
  for (const [header, value] of candidates) {
    if (value !== undefined && /^\d+$/.test(value)) return { header, seconds: Math.floor(now / 1000) - Number(value) };
  }
  return undefined;
}
