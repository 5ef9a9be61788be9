import type { GithubGuardConfig } from "../../config/guards";
import type { Guard } from "./types";
import { PASS, header, hmac, matchesAny, requireSecret, unauthenticated } from "./verdict";

/**
 * GitHub: `X-Hub-Signature-256: sha256=<hex>`, the HMAC-SHA256 of the raw body with the webhook's
 * secret. The older SHA-1 `X-Hub-Signature` is not accepted.
 */
export function createGithubGuard(config: GithubGuardConfig): Guard {
  const secret = requireSecret(config.secret);
  return {
    name: config.name,
    kind: config.kind,
    eventType: { header: "x-github-event" },
    check({ headers, body }) {
      const given = header(headers, "x-hub-signature-256");
      if (given === undefined) return unauthenticated("missing X-Hub-Signature-256 header");
      if (!given.startsWith("sha256=")) return unauthenticated('X-Hub-Signature-256 must be "sha256=<hex>"');
      const expected = hmac("sha256", secret, [body]).toString("hex");
      if (!matchesAny(expected, [given.slice(7).toLowerCase()])) {
        return unauthenticated("X-Hub-Signature-256 does not match the body");
      }
      return PASS;
    },
  };
}
