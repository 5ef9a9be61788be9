import { UsageError } from "../lib/args";
import { didYouMean } from "../lib/suggest";
import { PRESETS } from "../hooks/guards/providers";
import { signRequest, type Unsigned } from "../hooks/guards/scheme/sign";

/**
 * Signs a test hook as each named provider does (hooks/guards/providers: `mailroom providers`
 * lists them), so a guard of that kind accepts it. Headers already in the request win: they are
 * sent as given and, when the provider signs them (an id, an event), signed as given.
 */
export const PROVIDERS: readonly string[] = [...PRESETS.keys()];

/** `unknown provider githb (did you mean github?)`, else where the providers are listed. */
export function unknownSigner(provider: string): string {
  const near = didYouMean(provider, PROVIDERS);
  return `unknown provider ${provider}${near || "; mailroom providers lists them"}`;
}
export type Provider = string;

/** Headers a provider's own deliveries carry besides the signature, when the caller gave none. */
const DEFAULTS: Record<string, () => Record<string, string>> = {
  github: () => ({ "x-github-event": "ping", "x-github-delivery": crypto.randomUUID() }),
  shopify: () => ({ "x-shopify-topic": "app/test" }),
};

/**
 * The headers (and URL) of `req` signed as `provider` does: the provider's usual headers, then the
 * caller's, then the signature over them. Throws Error for an unknown provider, a missing key or a
 * scheme that signs inside the body.
 */
export function signFor(
  provider: string,
  keys: { secret?: string; privateKey?: string },
  req: Unsigned,
  now = Date.now(),
): { headers: Record<string, string>; url: string } {
  const preset = PRESETS.get(provider);
  if (!preset) throw new Error(unknownSigner(provider));
  const headers = { ...DEFAULTS[provider]?.(), ...req.headers };
  const signed = signRequest(preset.scheme, keys, { ...req, headers }, now);
  return { headers: { ...headers, ...signed.headers }, url: signed.url };
}

/** signFor for `mailroom trigger`: what it cannot sign is a UsageError saying so. */
export function signForTrigger(
  provider: string,
  keys: { secret?: string; privateKey?: string },
  req: Unsigned,
  now: number,
): { headers: Record<string, string>; url: string } {
  try {
    return signFor(provider, keys, req, now);
  } catch (error) {
    throw new UsageError(`trigger: cannot sign as ${provider}: ${(error as Error).message}`);
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
