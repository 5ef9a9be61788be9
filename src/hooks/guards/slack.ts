import type { SlackGuardConfig } from "../../config/guards";
import type { Clock } from "../../lib/clock";
import { parseDuration } from "../../lib/units";
import type { Guard } from "./types";
import { PASS, header, hmac, matchesAny, requireSecret, timestampProblem, unauthenticated } from "./verdict";

/**
 * Slack: `X-Slack-Signature: v0=<hex>`, the HMAC-SHA256 of `v0:<timestamp>:<body>` with the
 * signing secret, and `X-Slack-Request-Timestamp` within the tolerance (replays are refused).
 */
export function createSlackGuard(config: SlackGuardConfig, { clock }: { clock: Clock }): Guard {
  const secret = requireSecret(config.secret);
  const tolerance = parseDuration(config.tolerance)!;
  return {
    name: config.name,
    kind: config.kind,
    eventType: { body: ["event.type", "type"] },
    check({ headers, body }) {
      const given = header(headers, "x-slack-signature");
      const timestamp = header(headers, "x-slack-request-timestamp");
      if (given === undefined) return unauthenticated("missing X-Slack-Signature header");
      if (timestamp === undefined) return unauthenticated("missing X-Slack-Request-Timestamp header");
      if (!given.startsWith("v0=")) return unauthenticated('X-Slack-Signature must be "v0=<hex>"');
      const expected = hmac("sha256", secret, [`v0:${timestamp}:`, body]).toString("hex");
      if (!matchesAny(expected, [given.slice(3).toLowerCase()])) {
        return unauthenticated("X-Slack-Signature does not match the timestamp and body");
      }
      const late = timestampProblem(timestamp, clock.now(), tolerance);
      return late ? unauthenticated(`X-Slack-Request-Timestamp: ${late}`) : PASS;
    },
  };
}
