/**
 * One declarative signature scheme: every preset (github, stripe, twilio, discord...) is one value
 * of this type, and `kind = "scheme"` lets a user write one in TOML. engine.ts turns it into a check,
 * sign.ts into a signer.
 */

/** `token`: no signature, a shared token compared with the secret (GitLab's X-Gitlab-Token). */
export type SchemeAlgorithm = "hmac-sha1" | "hmac-sha256" | "hmac-sha512" | "ed25519" | "ecdsa-p256" | "rsa-sha256" | "token";
export type SignatureEncoding = "hex" | "base64" | "base64url";
export type TimestampFormat = "unix" | "unix-ms" | "rfc3339";

export type Scheme = {
  algorithm: SchemeAlgorithm;
  /**
   * What is signed, a template: literal text and {body}, {timestamp}, {method}, {url} (the public
   * URL with path and query), {path}, {query}, {header:NAME}, {form} (the form fields sorted by
   * name, each name then value: Twilio), {json:PATH} (a string field of the JSON body).
   */
  signed: string;
  /**
   * The header carrying the signature; "{n}" stands for 1, 2, 3... when the provider numbers its
   * headers (DocuSign). Or `field`: a string field of the JSON body (Mailgun).
   */
  header?: string;
  field?: string;
  /** Or a query parameter of the request (PandaDoc's `signature`). */
  query?: string;
  /** Key-value header (`t=1,v1=abc`): the key of the signatures; `pairs` separates the pairs (default ","). */
  key?: string;
  pairs?: string;
  /** Several signatures in one value, separated by this (" " for Standard Webhooks); any one may match. */
  separator?: string;
  /** Text before each signature (`sha256=`, `v0=`, `v1,`); entries without it are ignored when there are several. */
  prefix?: string;
  encoding: SignatureEncoding;
  /** Where the signed timestamp is: a header, a key of the key-value signature header, or a body field. */
  timestamp?: { header?: string; key?: string; field?: string; first?: boolean; format: TimestampFormat };
  /** The tolerance when the config gives none (default "300s"). */
  tolerance?: string;
  /** How the shared secret is written: utf8 (default), or the key bytes in base64 or hex; `strip` is removed first ("whsec_"). */
  secret?: { encoding?: "utf8" | "base64" | "hex"; strip?: string };
  /**
   * How the public key is written (asymmetric algorithms): PEM (SPKI or a certificate), base64 of
   * the SPKI DER (SendGrid), or hex of the raw 32-byte Ed25519 key (Discord).
   */
  publicKey?: "pem" | "base64-spki" | "hex-raw" | "base64-raw";
  /** Header names to try when the scheme's are absent: the prefix of each replaced (["webhook-", "svix-"]). */
  fallback?: [string, string];
  /** With `{form}`: a JSON body is signed through this query parameter instead (Twilio's bodySHA256, hex SHA-256 of the body). */
  bodyHashQuery?: string;
  /** What a mismatch says was signed ("timestamp and body"); by default worked out from `signed`. */
  what?: string;
};

/** Compiled pieces of `signed`, in order; "body" pieces are bytes, the rest text. */
export type SignedPiece =
  | { kind: "text"; text: string }
  | { kind: "body" }
  | { kind: "timestamp" }
  | { kind: "method" }
  | { kind: "url" }
  | { kind: "path" }
  | { kind: "query" }
  | { kind: "form" }
  | { kind: "header"; name: string }
  | { kind: "json"; path: string };
