import type { StandardWebhooksGuardConfig } from "../../config/guards";
import type { Clock } from "../../lib/clock";
import { parseDuration } from "../../lib/units";
import type { Guard } from "./types";
import { GuardConfigError, PASS, header, hmac, matchesAny, requireSecret, timestampProblem, unauthenticated } from "./verdict";

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

/** `whsec_<base64>` (the prefix is optional) -> the key bytes. Throws GuardConfigError. */
export function standardWebhooksKey(secret: string): Buffer {
  const text = secret.startsWith("whsec_") ? secret.slice(6) : secret;
  if (text === "" || !BASE64.test(text)) throw new GuardConfigError("secret", 'must be "whsec_" followed by base64');
  return Buffer.from(text, "base64");
}

/** The `webhook-` headers, or Svix's `svix-` names of the same three when those were sent instead. */
function signedHeaders(headers: Headers) {
  const family = header(headers, "webhook-signature") === undefined && header(headers, "svix-signature") !== undefined ? "svix" : "webhook";
  return {
    family,
    id: header(headers, `${family}-id`),
    timestamp: header(headers, `${family}-timestamp`),
    signature: header(headers, `${family}-signature`),
  };
}

/**
 * Standard Webhooks (and Svix): `webhook-signature: v1,<base64> v1,<base64>`, each the base64
 * HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` with the key after `whsec_`; the
 * timestamp within the tolerance. Entries of other versions (e.g. `v1a` asymmetric) are ignored.
 */
export function createStandardWebhooksGuard(config: StandardWebhooksGuardConfig, { clock }: { clock: Clock }): Guard {
  const key = standardWebhooksKey(requireSecret(config.secret));
  const tolerance = parseDuration(config.tolerance)!;
  return {
    name: config.name,
    kind: config.kind,
    eventType: { body: ["type", "event_type", "eventType", "event"] },
    check({ headers, body }) {
      const { family, id, timestamp, signature } = signedHeaders(headers);
      const missing = [id === undefined && "id", timestamp === undefined && "timestamp", signature === undefined && "signature"]
        .filter(Boolean)
        .map((n) => `${family}-${n}`);
      if (missing.length > 0) return unauthenticated(`missing ${missing.join(", ")} header${missing.length > 1 ? "s" : ""}`);
      const v1 = signature!
        .split(" ")
        .filter((entry) => entry.startsWith("v1,"))
        .map((entry) => entry.slice(3));
      if (v1.length === 0) return unauthenticated(`${family}-signature has no v1 signature`);
      const expected = hmac("sha256", key, [`${id}.${timestamp}.`, body]).toString("base64");
      if (!matchesAny(expected, v1)) return unauthenticated(`no v1 signature in ${family}-signature matches the body`);
      const late = timestampProblem(timestamp!, clock.now(), tolerance);
      return late ? unauthenticated(`${family}-timestamp: ${late}`) : PASS;
    },
  };
}
