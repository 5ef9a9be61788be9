import type { EventTypeRule } from "../../event-type";
import type { Scheme, SchemeAlgorithm, SignatureEncoding } from "../scheme/types";

/** A challenge or verification request the catching endpoint answers for the provider (hooks/handshakes.ts; SNS's is the aws-sns guard's own). */
export type Handshake = "slack" | "zoom" | "meta" | "x-crc" | "discord" | "twitch" | "microsoft-graph" | "dropbox" | "okta";

/** One named provider: `kind = "<kind>"` in [[guards]]. */
export type Preset = {
  kind: string;
  title: string;
  scheme: Scheme;
  eventType?: EventTypeRule;
  handshake?: Handshake;
  /**
   * The provider sends only JSON objects, and its handshake answers the HMAC of a sender-chosen
   * token with the signing key (X's CRC): any other body is refused, so an answer given to anyone
   * is never a valid signature of a body that could be stored.
   */
  jsonObjectBody?: true;
  /** What `secret` (or `public_key`) is, in the provider's words. */
  key: string;
  /** Keys besides secret / public_key and tolerance (text values): name -> what it is. */
  extra?: Record<string, { description: string; required?: boolean }>;
  /** Where the scheme is documented. */
  source: string;
};

/** A signature of the raw body alone, in one header. */
export function bodySigned(header: string, algorithm: SchemeAlgorithm = "hmac-sha256", encoding: SignatureEncoding = "hex", prefix?: string): Scheme {
  return { algorithm, signed: "{body}", header, encoding, ...(prefix ? { prefix } : {}) };
}

/** A shared token compared as it is, in a header. */
export function tokenIn(header: string, prefix?: string): Scheme {
  return { algorithm: "token", signed: "", header, encoding: "hex", what: "token", ...(prefix ? { prefix } : {}) };
}

/** Standard Webhooks (`webhook-*` headers, or Svix's `svix-*`): v1,<base64> of "<id>.<timestamp>.<body>", key base64 after "whsec_". */
export const STANDARD_WEBHOOKS: Scheme = {
  algorithm: "hmac-sha256",
  signed: "{header:webhook-id}.{timestamp}.{body}",
  header: "webhook-signature",
  separator: " ",
  prefix: "v1,",
  encoding: "base64",
  timestamp: { header: "webhook-timestamp", format: "unix" },
  secret: { encoding: "base64", strip: "whsec_" },
  fallback: ["webhook-", "svix-"],
  what: "body",
};

/** Svix's own header names first (senders that use Svix). */
export const SVIX: Scheme = {
  ...STANDARD_WEBHOOKS,
  signed: "{header:svix-id}.{timestamp}.{body}",
  header: "svix-signature",
  timestamp: { header: "svix-timestamp", format: "unix" },
  fallback: ["svix-", "webhook-"],
};

/** `t=<unix>,v1=<hex>` of "<t>.<body>" (Stripe's shape; others took it). */
export function stripeLike(header: string, key = "v1", format: "unix" | "unix-ms" = "unix", pairs = ","): Scheme {
  return {
    algorithm: "hmac-sha256",
    signed: "{timestamp}.{body}",
    header,
    key,
    pairs,
    encoding: "hex",
    timestamp: { key: "t", format },
    what: "body",
  };
}
