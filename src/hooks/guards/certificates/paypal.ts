import { verify } from "node:crypto";
import { parseRfc3339 } from "../../../lib/clock";
import type { Guard, GuardVerdict } from "../types";
import { header, PASS, unauthenticated } from "../verdict";
import { type CertificateConfig, checked, hostProblem, keySource } from "./source";
import type { CertificateDeps } from "./sns";

/** `kind = "paypal"`: PayPal REST webhooks. */
export type PaypalGuardConfig = CertificateConfig & { webhook_id?: string };

/** PayPal's API hosts, live and sandbox, where PAYPAL-CERT-URL points. */
export const PAYPAL_HOSTS: readonly string[] = ["api.paypal.com", "api-m.paypal.com", "api.sandbox.paypal.com", "api-m.sandbox.paypal.com"];

export const paypalCertUrlProblem = (url: string) => hostProblem(url, "PAYPAL-CERT-URL", (host) => PAYPAL_HOSTS.includes(host));

const HEADERS = ["paypal-transmission-id", "paypal-transmission-time", "paypal-transmission-sig", "paypal-auth-algo"] as const;

/** What PayPal signs: "<transmission id>|<transmission time>|<webhook id>|<CRC32 of the body, decimal>". */
export function paypalSigned(transmissionId: string, time: string, webhookId: string, body: Uint8Array): string {
  return `${transmissionId}|${time}|${webhookId}|${Bun.hash.crc32(body) >>> 0}`;
}

export function createPaypalGuard(config: PaypalGuardConfig, deps: CertificateDeps): Guard {
  const webhookId = config.webhook_id ?? "";
  const source = checked(
    () => keySource(config, paypalCertUrlProblem, deps.certificates),
    [...(webhookId ? [] : [{ key: "webhook_id", message: "give the webhook's id (from the app's Webhooks page): PayPal signs it" }])],
  );
  const toleranceMs = config.tolerance ?? 0;

  async function check(headers: Headers, body: Uint8Array): Promise<GuardVerdict> {
    const missing = HEADERS.filter((h) => header(headers, h) === undefined);
    if (missing.length > 0) return unauthenticated(`missing ${missing.map((h) => h.toUpperCase()).join(", ")} header${missing.length > 1 ? "s" : ""}`);
    const [id, time, sig, algo] = HEADERS.map((h) => header(headers, h)!) as [string, string, string, string];
    if (algo !== "SHA256withRSA") return unauthenticated('PAYPAL-AUTH-ALGO is not "SHA256withRSA"');
    const key = await source(header(headers, "paypal-cert-url"));
    if (typeof key === "string") return unauthenticated(key === "no certificate URL" ? "missing PAYPAL-CERT-URL header" : key);
    let ok = false;
    try {
      ok = verify("sha256", Buffer.from(paypalSigned(id, time, webhookId, body)), key, Buffer.from(sig, "base64"));
    } catch {
      ok = false;
    }
    if (!ok) return unauthenticated("PAYPAL-TRANSMISSION-SIG does not match the transmission id, time, webhook id and body");
    if (toleranceMs === 0) return PASS;
    const at = parseRfc3339(time);
    if (at === undefined) return unauthenticated("PAYPAL-TRANSMISSION-TIME is not an RFC 3339 time");
    const skew = Math.abs(deps.clock.now() - at);
    if (skew <= toleranceMs) return PASS;
    return unauthenticated(`PAYPAL-TRANSMISSION-TIME is ${Math.round(skew / 1000)}s away from now, beyond the tolerance of ${toleranceMs / 1000}s`);
  }

  return { name: config.name, kind: config.kind, authenticates: true, eventType: { body: ["event_type"] }, check: (input) => check(input.headers, input.body) };
}
