import { Type as t, type StaticDecode } from "@sinclair/typebox";
import { common, HeaderName, secret, strict, tolerance } from "./kind-keys";

const lits = <T extends string>(values: readonly T[], description: string, def?: T) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    def === undefined ? { description } : { description, default: def },
  );

/**
 * `kind = "scheme"`: a signature scheme written in TOML, for a sender no preset knows. The keys
 * are the declarative scheme's (hooks/guards/scheme/types.ts), flattened; docs/providers.md shows
 * every preset written this way.
 */
export const SchemeGuard = t.Object(
  {
    ...common("scheme"),
    ...secret("the shared secret (HMAC algorithms and token)"),
    public_key: t.Optional(t.String({ minLength: 1, description: "the sender's public key or certificate (ed25519, ecdsa-p256, rsa-sha256)" })),
    public_key_env: t.Optional(t.String({ description: "environment variable holding the public key" })),
    public_key_format: lits(
      ["pem", "base64-spki", "hex-raw", "base64-raw"],
      "how public_key is written: PEM, base64 of the SPKI DER, or the raw Ed25519 key in hex or base64",
      "pem",
    ),
    algorithm: lits(
      ["hmac-sha1", "hmac-sha256", "hmac-sha512", "ed25519", "ecdsa-p256", "rsa-sha256", "token"],
      "how the signature is made; token compares a shared token",
      "hmac-sha256",
    ),
    signed: t.String({
      default: "{body}",
      description:
        "what is signed: text with {body}, {timestamp}, {method}, {url}, {path}, {query}, {form}, {header:NAME}, {json:PATH}; must cover {body} or {form}",
    }),
    header: t.Optional(
      t.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~{}-]+$", description: 'header carrying the signature; "{n}" for numbered headers (X-Sig-1, X-Sig-2...)' }),
    ),
    field: t.Optional(t.String({ minLength: 1, description: "or: a field of the JSON body carrying it (dotted path)" })),
    query: t.Optional(t.String({ minLength: 1, description: "or: a query parameter carrying it" })),
    key: t.Optional(t.String({ minLength: 1, description: 'in a key-value header ("t=...,v1=..."): the key of the signatures' })),
    pairs: t.Optional(t.String({ minLength: 1, maxLength: 3, description: 'what separates the pairs of a key-value header (default ",")' })),
    separator: t.Optional(t.String({ minLength: 1, maxLength: 3, description: "what separates several signatures in one header (any one may match)" })),
    prefix: t.Optional(t.String({ description: 'text before each signature, e.g. "sha256=", "v1,"' })),
    encoding: lits(["hex", "base64", "base64url"], "how the signature is written", "hex"),
    timestamp_header: t.Optional(HeaderName("header carrying the signed timestamp")),
    timestamp_key: t.Optional(t.String({ minLength: 1, description: 'or: its key in the key-value signature header ("t")' })),
    timestamp_field: t.Optional(t.String({ minLength: 1, description: "or: a field of the JSON body (dotted path)" })),
    timestamp_format: lits(["unix", "unix-ms", "rfc3339"], "how the timestamp is written", "unix"),
    tolerance: tolerance("300s"),
    secret_encoding: lits(["utf8", "base64", "hex"], "how the secret is written: as is, or the key bytes in base64 or hex", "utf8"),
    secret_prefix: t.Optional(t.String({ minLength: 1, description: 'removed from the secret before it is decoded ("whsec_")' })),
    event_type_header: t.Optional(HeaderName("header naming the event type")),
    event_type_field: t.Optional(t.String({ minLength: 1, description: "field of the JSON body naming the event type (dotted path)" })),
  },
  strict,
);

export type SchemeGuardConfig = StaticDecode<typeof SchemeGuard>;
