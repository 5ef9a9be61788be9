import type { ShopifyGuardConfig } from "../../config/guards";
import type { Guard } from "./types";
import { PASS, header, hmac, matchesAny, requireSecret, unauthenticated } from "./verdict";

/** Shopify: `X-Shopify-Hmac-Sha256`, the base64 HMAC-SHA256 of the raw body. */
export function createShopifyGuard(config: ShopifyGuardConfig): Guard {
  const secret = requireSecret(config.secret);
  return {
    name: config.name,
    kind: config.kind,
    eventType: { header: "x-shopify-topic" },
    check({ headers, body }) {
      const given = header(headers, "x-shopify-hmac-sha256");
      if (given === undefined) return unauthenticated("missing X-Shopify-Hmac-Sha256 header");
      const expected = hmac("sha256", secret, [body]).toString("base64");
      if (!matchesAny(expected, [given])) return unauthenticated("X-Shopify-Hmac-Sha256 does not match the body");
      return PASS;
    },
  };
}
