import type { StripeGuardConfig } from "../../config/guards";
import type { Clock } from "../../lib/clock";
import { parseDuration } from "../../lib/units";
import type { Guard } from "./types";
import { PASS, header, hmac, matchesAny, requireSecret, timestampProblem, unauthenticated } from "./verdict";

/** `t=1700000000,v1=<hex>,v1=<hex>,v0=...` -> the first t and every v1 (one per live secret). */
export function parseStripeSignature(text: string): { timestamp?: string; v1: string[] } {
  let timestamp: string | undefined;
  const v1: string[] = [];
  for (const item of text.split(",")) {
    const eq = item.indexOf("=");
    if (eq < 0) continue;
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (key === "t" && timestamp === undefined) timestamp = value;
    else if (key === "v1") v1.push(value.toLowerCase());
  }
  return { timestamp, v1 };
}

/**
 * Stripe: `Stripe-Signature: t=<unix>,v1=<hex>...`, the HMAC-SHA256 of `<t>.<body>` with the
 * endpoint's signing secret (the whole `whsec_...` text is the key), and t within the tolerance.
 */
export function createStripeGuard(config: StripeGuardConfig, { clock }: { clock: Clock }): Guard {
  const secret = requireSecret(config.secret);
  const tolerance = parseDuration(config.tolerance)!;
  return {
    name: config.name,
    kind: config.kind,
    eventType: { body: ["type"] },
    check({ headers, body }) {
      const given = header(headers, "stripe-signature");
      if (given === undefined) return unauthenticated("missing Stripe-Signature header");
      const { timestamp, v1 } = parseStripeSignature(given);
      if (timestamp === undefined) return unauthenticated("Stripe-Signature has no timestamp (t=)");
      if (v1.length === 0) return unauthenticated("Stripe-Signature has no v1 signature");
      const expected = hmac("sha256", secret, [`${timestamp}.`, body]).toString("hex");
      if (!matchesAny(expected, v1)) return unauthenticated("no v1 signature in Stripe-Signature matches the body");
      const late = timestampProblem(timestamp, clock.now(), tolerance);
      return late ? unauthenticated(`Stripe-Signature: ${late}`) : PASS;
    },
  };
}
