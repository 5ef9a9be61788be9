import { createHash, verify as verifySignature, type KeyObject } from "node:crypto";
import type { Clock } from "../../../lib/clock";
import { constantTimeEqual, sha256Hex } from "../../../lib/secrets";
import type { GuardInput, GuardVerdict } from "../types";
import { matchesAny, PASS, unauthenticated } from "../verdict";
import { isAsymmetric, publicKeyOf, secretKey } from "./keys";
import { collectSignatures, type Found, neededHeaders, readHeaders } from "./read";
import { compileSigned, describeSigned, isForm, jsonField, type SignedContext, signedParts } from "./signed";
import { timestampMs } from "./timestamps";
import type { Scheme } from "./types";

export type SchemeKeys = { secret?: string; publicKey?: string };
/** `publicUrl`: `[server] public_url` without its trailing slash (config/values.ts PublicUrl.base). */
export type SchemeDeps = { clock: Clock; publicUrl?: string };

/** The URL a sender signed: `[server] public_url` with the request's path and query, else the URL as received. */
export function signedUrl(requestUrl: string | undefined, publicUrl: string | undefined): string {
  const url = requestUrl ?? "";
  if (!publicUrl) return url;
  const at = url.indexOf("://");
  const slash = url.indexOf("/", at < 0 ? 0 : at + 3);
  return publicUrl + (slash < 0 ? "/" : url.slice(slash));
}

/**
 * Compiles a scheme into a check. Throws GuardConfigError for a template, secret or public key
 * that cannot work. Refusal reasons name what is wrong (a missing header, a signature that does not
 * match what was signed: a changed body or another secret, a timestamp beyond the tolerance) and
 * never the expected signature or the secret.
 */
export function compileScheme(
  scheme: Scheme,
  keys: SchemeKeys,
  toleranceMs: number,
  deps: SchemeDeps,
): (input: GuardInput) => GuardVerdict | Promise<GuardVerdict> {
  const pieces = compileSigned(scheme.signed);
  const needed = neededHeaders(scheme, pieces);
  const what = scheme.what ?? describeSigned(pieces);
  const asymmetric = isAsymmetric(scheme);
  const signsForm = pieces.some((p) => p.kind === "form");
  const hmacKey = asymmetric || scheme.algorithm === "token" ? undefined : secretKey(scheme, keys.secret!);
  const publicKey: KeyObject | undefined = asymmetric ? publicKeyOf(scheme, keys.publicKey!) : undefined;
  const digest = scheme.algorithm.startsWith("hmac-") ? (scheme.algorithm.slice(5) as "sha1" | "sha256" | "sha512") : "sha256";

  const token = scheme.algorithm === "token" ? sha256Hex(keys.secret!) : undefined;
  // Ed25519 through node:crypto's verify with the KeyObject made once: about 50 us here, against
  // 65 us for WebCrypto's (a key given as PEM or imported per call costs several times that).
  function matchesEd25519(parts: (string | Uint8Array)[], found: Found): boolean {
    const message = Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p)));
    let ok = false;
    for (const s of found.signatures) {
      const bytes = Buffer.from(s, scheme.encoding);
      if (bytes.length !== 64) continue;
      try {
        ok = verifySignature(null, message, publicKey!, bytes) || ok;
      } catch {
        // A key that cannot verify Ed25519 matches nothing.
      }
    }
    return ok;
  }

  function matches(parts: (string | Uint8Array)[], found: Found): boolean {
    if (token !== undefined) return found.signatures.reduce((ok, s) => constantTimeEqual(sha256Hex(s), token) || ok, false);
    if (hmacKey !== undefined) {
      const mac = new Bun.CryptoHasher(digest, hmacKey);
      for (const p of parts) mac.update(p);
      let expected = scheme.encoding === "base64url" ? mac.digest("base64").replace(/\+/g, "-").replace(/\//g, "_") : mac.digest(scheme.encoding);
      let presented = found.signatures;
      if (scheme.encoding === "hex") presented = presented.map((s) => s.toLowerCase());
      if (scheme.encoding !== "hex") {
        // Padding is optional in what senders write; compare without it.
        expected = expected.replace(/=+$/, "");
        presented = presented.map((s) => s.replace(/=+$/, ""));
      }
      return matchesAny(expected, presented);
    }
    const message = Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p)));
    const algorithm = scheme.algorithm === "ed25519" ? null : "sha256";
    let ok = false;
    for (const s of found.signatures) {
      const bytes = Buffer.from(s, scheme.encoding);
      try {
        ok = verifySignature(algorithm, message, publicKey!, bytes) || ok;
      } catch {
        // A signature of the wrong shape for the key matches nothing.
      }
    }
    return ok;
  }

  return (input) => {
    let parsed: Record<string, unknown> | undefined;
    let read = false;
    const json = (): Record<string, unknown> | undefined => {
      if (read) return parsed;
      read = true;
      try {
        const v = JSON.parse(Buffer.from(input.body).toString("utf8"));
        parsed = v && typeof v === "object" && !Array.isArray(v) ? v : undefined;
      } catch {
        parsed = undefined;
      }
      return parsed;
    };
    const names = readHeaders(scheme, input.headers, needed);
    if (names.missing.length > 0) return unauthenticated(`missing ${names.missing.join(", ")} header${names.missing.length > 1 ? "s" : ""}`);
    const found = collectSignatures(scheme, names, input.headers, json, input.query);
    if ("refusal" in found) return unauthenticated(found.refusal);
    const timestamp = scheme.timestamp?.field !== undefined ? jsonField(json(), scheme.timestamp.field) : found.timestamp;
    if (scheme.timestamp && timestamp === undefined) return unauthenticated(`${found.where} has no timestamp`);
    const context: SignedContext = { input, url: signedUrl(input.url, deps.publicUrl), timestamp, json, lookup: names.lookup };
    const parts = signedParts(pieces, context);
    const absent = pieces.findIndex((p, i) => parts[i] === undefined && p.kind === "json");
    if (absent >= 0) return unauthenticated(`the body has no field ${(pieces[absent] as { path: string }).path}`);
    if (signsForm && !formSigned(input)) {
      const hash = scheme.bodyHashQuery !== undefined ? ` and there is no ${scheme.bodyHashQuery} query parameter` : "";
      return unauthenticated(`the body is not form-encoded${hash}: the ${what} would not cover it`);
    }
    if (scheme.bodyHashQuery !== undefined && !bodyHashMatches(scheme.bodyHashQuery, input)) {
      return unauthenticated(`the body does not match its ${scheme.bodyHashQuery} query parameter`);
    }
    if (scheme.algorithm === "ed25519") return verdict(matchesEd25519(parts as (string | Uint8Array)[], found), found, timestamp);
    return verdict(matches(parts as (string | Uint8Array)[], found), found, timestamp);
  };

  /**
   * Whether a scheme that signs `{form}` covers this body: a form, an empty body, or (Twilio's
   * JSON) a body whose hash the URL carries. Any other body would pass unsigned.
   */
  function formSigned(input: GuardInput): boolean {
    if (input.body.byteLength === 0 || isForm(input.headers)) return true;
    return scheme.bodyHashQuery !== undefined && new URLSearchParams(input.query).has(scheme.bodyHashQuery);
  }

  /** The verdict once the signature was judged: its mismatch, else the timestamp's age. */
  function verdict(matched: boolean, found: Found, timestamp: string | undefined): GuardVerdict {
    if (!matched) {
      if (token !== undefined) return unauthenticated(`wrong token in ${found.where}`);
      const label = found.label ? `${found.label} ` : "";
      return unauthenticated(found.several ? `no ${label}signature in ${found.where} matches the ${what}` : `${found.where} does not match the ${what}`);
    }
    if (!scheme.timestamp || toleranceMs === 0) return PASS;
    const ms = timestampMs(timestamp!, scheme.timestamp.format);
    if (ms === undefined) return unauthenticated(`${found.timestampWhere}: timestamp is not ${FORMAT_WORDS[scheme.timestamp.format]}`);
    const skew = Math.abs(deps.clock.now() - ms);
    if (skew <= toleranceMs) return PASS;
    return unauthenticated(`${found.timestampWhere}: timestamp is ${Math.round(skew / 1000)}s away from now, beyond the tolerance of ${toleranceMs / 1000}s`);
  }
}

const FORMAT_WORDS = { unix: "a Unix time in seconds", "unix-ms": "a Unix time in milliseconds", rfc3339: "an RFC 3339 time" };

/** Twilio's JSON bodies: the signed URL carries the body's hex SHA-256 in a query parameter. */
function bodyHashMatches(param: string, input: GuardInput): boolean {
  const given = new URLSearchParams(input.query).get(param);
  // Without it the body is a form (or empty), which the signature covers (formSigned).
  if (given === null) return true;
  return constantTimeEqual(createHash("sha256").update(input.body).digest("hex"), given.toLowerCase());
}
