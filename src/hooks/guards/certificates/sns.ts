import { verify } from "node:crypto";
import type { Clock } from "../../../lib/clock";
import type { Guard, GuardVerdict, HandshakeHandler } from "../types";
import { PASS, unauthenticated } from "../verdict";
import { type CertificateFetcher, defaultFetcher } from "./fetcher";
import { type CertificateConfig, checked, hostProblem, keySource } from "./source";

/** `kind = "aws-sns"`: Amazon SNS HTTP(S) subscriptions. */
export type SnsGuardConfig = CertificateConfig & { topic_arn?: string; confirm_subscription?: boolean };
export type CertificateDeps = { clock: Clock; certificates?: CertificateFetcher };

/** SNS's own hosts: sns.<region>.amazonaws.com, and .amazonaws.com.cn in China (GovCloud regions are regions). */
export const SNS_HOST = /^sns\.[a-z0-9-]{3,}\.amazonaws\.com(\.cn)?$/;
const snsHost = (host: string) => SNS_HOST.test(host);

/** The reason a SigningCertURL is refused, or undefined: https, an SNS host, a .pem path. */
export function snsCertUrlProblem(url: string): string | undefined {
  const problem = hostProblem(url, "SigningCertURL", snsHost);
  if (problem) return problem;
  return new URL(url).pathname.endsWith(".pem") ? undefined : "SigningCertURL is not a .pem file";
}

/** The fields signed, in the order SNS documents ("Verifying the signatures of Amazon SNS messages"). */
const SIGNED: Record<string, readonly string[]> = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
};

/** The string SNS signs: each field's name and value on lines of their own (Subject only when present). */
export function snsCanonical(message: Record<string, unknown>): string | { missing: string } {
  const fields = SIGNED[message.Type as string];
  if (!fields) return { missing: "Type" };
  let text = "";
  for (const name of fields) {
    const value = message[name];
    if (name === "Subject" && value === undefined) continue;
    if (typeof value !== "string") return { missing: name };
    text += `${name}\n${value}\n`;
  }
  return text;
}

function parse(body: Uint8Array): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(Buffer.from(body).toString("utf8"));
    return v && typeof v === "object" && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export function createSnsGuard(config: SnsGuardConfig, deps: CertificateDeps): Guard {
  const topic = config.topic_arn;
  const source = checked(
    () => keySource(config, snsCertUrlProblem, deps.certificates),
    [...(topic ? [] : [{ key: "topic_arn", message: "give the ARN of the topic whose messages are accepted (any AWS account can make SNS sign a message)" }])],
  );
  const toleranceMs = config.tolerance ?? 0;

  async function check(body: Uint8Array): Promise<GuardVerdict> {
    const message = parse(body);
    if (!message) return unauthenticated("the body is not an SNS message (a JSON object)");
    const canonical = snsCanonical(message);
    if (typeof canonical !== "string") return unauthenticated(`the SNS message has no ${canonical.missing}`);
    if (message.TopicArn !== topic) return refuseTopic();
    const version = message.SignatureVersion;
    if (version !== "1" && version !== "2") return unauthenticated('SignatureVersion is not "1" or "2"');
    if (typeof message.Signature !== "string" || message.Signature === "") return unauthenticated("the SNS message has no Signature");
    const key = await source(typeof message.SigningCertURL === "string" ? message.SigningCertURL : undefined);
    if (typeof key === "string") return unauthenticated(key);
    let ok = false;
    try {
      ok = verify(version === "1" ? "sha1" : "sha256", Buffer.from(canonical), key, Buffer.from(message.Signature, "base64"));
    } catch {
      ok = false;
    }
    if (!ok) return unauthenticated("Signature does not match the message's fields");
    if (toleranceMs === 0) return PASS;
    const at = Date.parse(message.Timestamp as string);
    if (Number.isNaN(at)) return unauthenticated("Timestamp is not an ISO 8601 time");
    const skew = Math.abs(deps.clock.now() - at);
    if (skew <= toleranceMs) return PASS;
    return unauthenticated(`Timestamp is ${Math.round(skew / 1000)}s away from now, beyond the tolerance of ${toleranceMs / 1000}s`);
  }

  const refuseTopic = () => unauthenticated("TopicArn is not the guard's topic_arn");
  return {
    name: config.name,
    kind: config.kind,
    authenticates: true,
    eventType: { body: ["Subject", "Type"] },
    ...(config.confirm_subscription ? { handshake: confirmation(deps.certificates) } : {}),
    check: (input) => check(input.body),
  };
}

/**
 * `confirm_subscription = true`: a SubscriptionConfirmation that passed the guard (its signature
 * and topic checked) is confirmed by a GET of its SubscribeURL, on SNS's hosts only; it is kept with
 * the refusals, never as a hook.
 */
function confirmation(fetcher: CertificateFetcher | undefined): HandshakeHandler {
  return {
    async after({ body }) {
      const message = parse(body);
      if (message?.Type !== "SubscriptionConfirmation" || typeof message.SubscribeURL !== "string") return undefined;
      const text = (body: string, status: number) => new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
      const problem = hostProblem(message.SubscribeURL, "SubscribeURL", snsHost);
      if (problem) return { response: text(problem, 403), what: `SubscriptionConfirmation refused: ${problem}` };
      try {
        const status = await (fetcher ?? defaultFetcher()).get(message.SubscribeURL);
        if (status >= 200 && status < 300) return { response: text("subscription confirmed", 200), what: "SubscriptionConfirmation confirmed" };
        return { response: text(`SubscribeURL answered ${status}`, 502), what: `SubscriptionConfirmation failed: SubscribeURL answered ${status}` };
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        return { response: text("SubscribeURL could not be reached", 502), what: `SubscriptionConfirmation failed: ${why}` };
      }
    },
  };
}
