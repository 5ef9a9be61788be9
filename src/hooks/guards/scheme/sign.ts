import { createHash, createHmac, createPrivateKey, sign as signBytes } from "node:crypto";
import { secretKey } from "./keys";
import { type SignedContext, signedParts, compileSigned } from "./signed";
import { formatTimestamp } from "./timestamps";
import type { Scheme } from "./types";

/** A request to sign: its URL (as the receiver will see it), method, headers (lower-case) and body. */
export type Unsigned = { url: string; method: string; headers: Record<string, string>; body: Uint8Array };

/**
 * Signs a request as the scheme's sender does: returns the headers to add (the timestamp, the ids
 * the signed content names, the signature) and the URL (changed when the signature or a body hash
 * travels in the query). Headers already in the request are used as they are (an id or event the
 * caller chose is signed, not replaced). `secret` for HMAC and token schemes, `privateKey` (PEM)
 * for asymmetric ones. Throws Error when the scheme cannot be signed this way (a signature inside
 * the body) or a key is missing.
 */
export function signRequest(
  scheme: Scheme,
  keys: { secret?: string; privateKey?: string },
  req: Unsigned,
  now = Date.now(),
): { headers: Record<string, string>; url: string } {
  if (scheme.field !== undefined) throw new Error(`the signature travels in the body (field ${scheme.field}): send a body that carries it`);
  const added: Record<string, string> = {};
  const has = (name: string) => req.headers[name.toLowerCase()] !== undefined || added[name.toLowerCase()] !== undefined;
  const pieces = compileSigned(scheme.signed);
  for (const p of pieces) {
    if (p.kind === "header" && !has(p.name))
      added[p.name] = /(^|-)id$/.test(p.name) && /^(webhook|svix)-/.test(p.name) ? `msg_${crypto.randomUUID().replaceAll("-", "")}` : crypto.randomUUID();
  }
  let url = req.url;
  // A body {form} does not cover (not a form, not empty) goes through the URL's body hash, as the
  // guard expects (engine.ts formSigned), or cannot be signed at all.
  const isForm = (req.headers["content-type"] ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded");
  if (pieces.some((p) => p.kind === "form") && req.body.byteLength > 0 && !isForm) {
    if (!scheme.bodyHashQuery)
      throw new Error(
        "this provider signs form fields: send the body as application/x-www-form-urlencoded (--header 'content-type: application/x-www-form-urlencoded')",
      );
    url += `${url.includes("?") ? "&" : "?"}${scheme.bodyHashQuery}=${createHash("sha256").update(req.body).digest("hex")}`;
  }
  // A timestamp in the body (Linear's webhookTimestamp) is the body's business: it is signed with it.
  const stamped = scheme.timestamp && scheme.timestamp.field === undefined;
  const ts = stamped
    ? (scheme.timestamp!.header && req.headers[scheme.timestamp!.header.toLowerCase()]) || formatTimestamp(now, scheme.timestamp!.format)
    : undefined;
  if (scheme.timestamp?.header && !has(scheme.timestamp.header)) added[scheme.timestamp.header.toLowerCase()] = ts!;
  const all = { ...added, ...req.headers };
  const q = url.indexOf("?");
  const context: SignedContext = {
    input: { method: req.method, query: q < 0 ? "" : url.slice(q + 1), headers: new Headers(all), body: req.body },
    url,
    timestamp: ts,
    json: () => undefined,
  };
  const parts = signedParts(pieces, context).map((p) => p ?? "");
  const signature = compute(scheme, keys, parts);
  const value = format(scheme, signature, ts);
  if (scheme.query !== undefined) return { headers: added, url: `${url}${url.includes("?") ? "&" : "?"}${scheme.query}=${encodeURIComponent(value)}` };
  added[scheme.header!.replace("{n}", "1").toLowerCase()] = value;
  return { headers: added, url };
}

function compute(scheme: Scheme, keys: { secret?: string; privateKey?: string }, parts: (string | Uint8Array)[]): string {
  if (scheme.algorithm === "token") {
    if (!keys.secret) throw new Error("a secret is needed");
    return keys.secret;
  }
  if (scheme.algorithm.startsWith("hmac-")) {
    if (!keys.secret) throw new Error("a secret is needed");
    const mac = createHmac(scheme.algorithm.slice(5), secretKey(scheme, keys.secret));
    for (const p of parts) mac.update(p);
    return mac.digest(scheme.encoding);
  }
  if (!keys.privateKey) throw new Error(`${scheme.algorithm} signs with a private key: give one (PEM)`);
  const message = Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p)));
  return signBytes(scheme.algorithm === "ed25519" ? null : "sha256", message, createPrivateKey(keys.privateKey)).toString(scheme.encoding);
}

/** The header's value as the sender writes it. */
function format(scheme: Scheme, signature: string, ts: string | undefined): string {
  const prefixed = `${scheme.prefix ?? ""}${signature}`;
  if (scheme.key !== undefined) {
    const pairs = scheme.pairs ?? ",";
    return scheme.timestamp?.key ? `${scheme.timestamp.key}=${ts}${pairs}${scheme.key}=${prefixed}` : `${scheme.key}=${prefixed}`;
  }
  if (scheme.timestamp?.first) return `${ts}${scheme.separator ?? ","}${prefixed}`;
  return prefixed;
}
