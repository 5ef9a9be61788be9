import { createHash, createPrivateKey } from "node:crypto";
import { PRESETS } from "../hooks/guards/providers";
import { isAsymmetric, secretKey } from "../hooks/guards/scheme/keys";
import { signRequest } from "../hooks/guards/scheme/sign";
import { compileSigned } from "../hooks/guards/scheme/signed";
import type { Scheme } from "../hooks/guards/scheme/types";
import { didYouMean } from "../lib/suggest";
import type { Outgoing } from "../runner/handlers";

/** `resign = { kind, secret }` once loaded: the provider kind and the key it signs with. */
export type ResignSettings = { kind: string; secret?: string; private_key?: string };

/** Delivery id headers providers send beside the signature without signing them: fresh when re-signed. */
const DELIVERY_IDS = ["x-github-delivery", "x-gitlab-event-uuid", "x-shopify-webhook-id", "x-shopify-event-id"];

/**
 * Why `kind` cannot be re-signed, or undefined when it can: an unknown kind, a signature carried
 * in the body (Mailgun, Microsoft Graph's clientState: re-signing would change the body the app
 * gets), a timestamp carried in the body (Linear's webhookTimestamp: a fresh one would change the
 * body, the stale one fails the app's tolerance).
 */
export function resignProblem(kind: string): string | undefined {
  const preset = PRESETS.get(kind);
  if (!preset) return `unknown provider ${kind}${didYouMean(kind, [...PRESETS.keys()]) || "; mailroom providers lists them"}`;
  const scheme = preset.scheme;
  if (scheme.field !== undefined) return `${kind} carries its signature in the body (${scheme.field}): re-signing would change the body the app gets`;
  if (scheme.timestamp?.field !== undefined)
    return `${kind} carries its timestamp in the body (${scheme.timestamp.field}): a fresh one would change the body, the caught one is stale`;
  return undefined;
}

/** What a key for `kind` must be: "secret" for HMAC and token schemes, "private_key" (PEM) for asymmetric ones. */
export function keyOf(kind: string): "secret" | "private_key" {
  const preset = PRESETS.get(kind);
  return preset && isAsymmetric(preset.scheme) ? "private_key" : "secret";
}

/**
 * Why the key of `settings` can never sign as its kind (the signer's own parse: a Standard Webhooks
 * secret that is not "whsec_" and base64, a private key that is not PEM or not of the scheme's
 * algorithm), or undefined when it can. Assumes resignProblem(kind) is undefined.
 */
export function resignKeyProblem(settings: ResignSettings): { key: "secret" | "private_key"; message: string } | undefined {
  const scheme = PRESETS.get(settings.kind)?.scheme;
  if (!scheme) return undefined;
  if (keyOf(settings.kind) === "secret") {
    if (settings.secret === undefined || !scheme.algorithm.startsWith("hmac-")) return undefined;
    try {
      secretKey(scheme, settings.secret);
      return undefined;
    } catch (error) {
      return { key: "secret", message: `${(error as Error).message} for ${settings.kind}` };
    }
  }
  if (settings.private_key === undefined) return undefined;
  let type: string | undefined;
  try {
    type = createPrivateKey(settings.private_key).asymmetricKeyType;
  } catch {
    return { key: "private_key", message: `does not parse as a private key (PEM) for ${settings.kind}` };
  }
  const want = scheme.algorithm === "ed25519" ? "ed25519" : scheme.algorithm.startsWith("ecdsa") ? "ec" : "rsa";
  return type === want ? undefined : { key: "private_key", message: `is a ${type} key; ${settings.kind} signs with ${want}` };
}

/** The headers of the scheme that a re-signature replaces: the signature (all numbered), its timestamp, the ids it signs. */
function replaced(scheme: Scheme): { names: Set<string>; numbered?: RegExp; ids: string[] } {
  const names = new Set<string>(DELIVERY_IDS);
  const variants = (name: string) => {
    const lower = name.toLowerCase();
    const [a, b] = scheme.fallback ?? ["", ""];
    return a && lower.startsWith(a) ? [lower, b + lower.slice(a.length)] : b && lower.startsWith(b) ? [lower, a + lower.slice(b.length)] : [lower];
  };
  let numbered: RegExp | undefined;
  if (scheme.header?.includes("{n}")) numbered = new RegExp(`^${scheme.header.toLowerCase().replace("{n}", "\\d+")}$`);
  else if (scheme.header) for (const n of variants(scheme.header)) names.add(n);
  if (scheme.timestamp?.header) for (const n of variants(scheme.timestamp.header)) names.add(n);
  const ids: string[] = [];
  for (const piece of compileSigned(scheme.signed)) {
    if (piece.kind !== "header" || !/(^|-)(id|delivery|uuid)$/.test(piece.name.toLowerCase())) continue;
    for (const n of variants(piece.name)) names.add(n);
    ids.push(piece.name.toLowerCase());
  }
  return { names, numbered, ids };
}

/** A delivery id for `key` (the hook and the handler): the same for each attempt and duplicate, never the caught one. */
function freshId(name: string, key: string): string {
  const hex = createHash("sha256").update(`mailroom delivery\0${key}`).digest("hex");
  if (/^(webhook|svix)-/.test(name)) return `msg_${hex.slice(0, 32)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The request signed as `settings.kind` signs its deliveries, at `now`: the caught signature, its
 * timestamp and the delivery ids are removed and replaced by a fresh timestamp, ids derived from
 * `key` (stable across the attempts of one hook and handler, as a provider's retry keeps them) and
 * a signature with the user's key. The URL may change (a scheme signing through the query).
 * Throws Error when the kind cannot be re-signed (resignProblem) or the key is missing.
 */
export function resignRequest(request: Outgoing, settings: ResignSettings, now: number, key: string): Outgoing {
  const problem = resignProblem(settings.kind);
  if (problem) throw new Error(problem);
  const scheme = PRESETS.get(settings.kind)!.scheme;
  const { names, numbered, ids } = replaced(scheme);
  const headers: Record<string, string> = {};
  const caught = new Set<string>();
  request.headers.forEach((value, name) => {
    if (names.has(name) || numbered?.test(name)) return void caught.add(name);
    headers[name] = value;
  });
  for (const name of ids) headers[name] = freshId(name, key);
  for (const name of DELIVERY_IDS) if (caught.has(name)) headers[name] = freshId(name, key);
  const keys = keyOf(settings.kind) === "private_key" ? { privateKey: settings.private_key } : { secret: settings.secret };
  const body = request.body ?? new Uint8Array();
  const signed = signRequest(scheme, keys, { url: request.url, method: request.method, headers, body }, now);
  const out = new Headers();
  for (const [name, value] of Object.entries({ ...headers, ...signed.headers })) out.set(name, value);
  return { ...request, url: signed.url, headers: out };
}
