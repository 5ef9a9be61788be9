import { Type as t, type StaticDecode } from "@sinclair/typebox";
import type { TObject, TProperties } from "@sinclair/typebox";
import { PRESETS, type Preset } from "./providers";
import { Size } from "../../config/schema";
import { common, HEADER_NAME, HeaderName, secret, strict, tolerance } from "./kind-keys";
import { PaypalGuard, SnsGuard } from "./certificate-kinds";
import { SchemeGuard } from "./scheme-kind";

/**
 * Schema of a [[guards]] entry for each guard kind. Each includes `name` and `kind` and refuses
 * unknown keys; the loader picks the schema by `kind`. Secrets are optional here because the
 * loader resolves `secret_env` into `secret` first; the guard factory says when neither was given.
 */
export const HmacGuard = t.Object(
  {
    ...common("hmac"),
    ...secret("the shared HMAC key"),
    secret_encoding: t.Union([t.Literal("utf8"), t.Literal("base64"), t.Literal("hex")], {
      default: "utf8",
      description: "how the secret is written: as is (utf8), or the key bytes in base64 or hex",
    }),
    header: HeaderName("request header carrying the signature"),
    prefix: t.String({ default: "", description: 'text before the signature in the header, e.g. "sha256="' }),
    algorithm: t.Union([t.Literal("sha1"), t.Literal("sha256"), t.Literal("sha512")], {
      default: "sha256",
      description: "HMAC hash function",
    }),
    encoding: t.Union([t.Literal("hex"), t.Literal("base64"), t.Literal("base64url")], {
      default: "hex",
      description: "how the signature is written",
    }),
    signed: t.String({
      default: "{body}",
      description: "what is signed: a template with {body} once, and optionally {timestamp}, {method}, {query}, {header:NAME}",
    }),
    timestamp_header: t.Optional(HeaderName("header carrying the Unix time in seconds, used by {timestamp} and the tolerance")),
    tolerance: tolerance("300s"),
  },
  strict,
);

export const BasicAuthGuard = t.Object(
  {
    ...common("basic-auth"),
    username: t.String({ minLength: 1, description: "expected user name" }),
    password: t.Optional(t.String({ minLength: 1, description: "expected password" })),
    password_env: t.Optional(t.String({ description: "environment variable holding the password" })),
    realm: t.String({ default: "mailroom", description: "realm named in the WWW-Authenticate challenge" }),
  },
  strict,
);

export const TokenGuard = t.Object(
  {
    ...common("token"),
    ...secret("the expected token"),
    header: t.String({ pattern: HEADER_NAME, default: "authorization", description: "request header carrying the token" }),
    scheme: t.Optional(t.String({ description: 'word before the token, e.g. "Bearer"; defaults to "Bearer" for Authorization, none for other headers' })),
    query: t.Optional(t.String({ minLength: 1, description: "read the token from this query parameter instead of a header" })),
  },
  strict,
);

export const IpAllowGuard = t.Object(
  {
    ...common("ip-allow"),
    allow: t.Array(t.String({ description: 'an address or CIDR block, IPv4 or IPv6, e.g. "192.30.252.0/22"' }), {
      minItems: 1,
      description: "senders allowed; an IPv4 block also matches its IPv4-mapped IPv6 form",
    }),
  },
  strict,
);

export const MethodGuard = t.Object(
  {
    ...common("method"),
    allow: t.Array(t.String({ pattern: "^[A-Za-z]+$" }), {
      default: ["POST"],
      minItems: 1,
      uniqueItems: true,
      description: "HTTP methods allowed (any case); others get 405",
    }),
  },
  strict,
);

export const ContentTypeGuard = t.Object(
  {
    ...common("content-type"),
    allow: t.Array(t.String({ pattern: "^[A-Za-z0-9!#$&^_.+-]+/(\\*|\\*\\+[A-Za-z0-9!#$&^_.-]+|[A-Za-z0-9!#$&^_.+-]+)$" }), {
      default: ["application/json"],
      minItems: 1,
      uniqueItems: true,
      description: 'media types allowed, parameters ignored; "type/*" allows a whole type, "type/*+json" a suffix; others get 415',
    }),
  },
  strict,
);

export const MaxBodyGuard = t.Object({ ...common("max-body"), max: Size("1MB", "larger bodies get 413; below [hooks] max_body to matter") }, strict);

export type HmacGuardConfig = StaticDecode<typeof HmacGuard>;
export type BasicAuthGuardConfig = StaticDecode<typeof BasicAuthGuard>;
export type TokenGuardConfig = StaticDecode<typeof TokenGuard>;
export type IpAllowGuardConfig = StaticDecode<typeof IpAllowGuard>;
export type MethodGuardConfig = StaticDecode<typeof MethodGuard>;
export type ContentTypeGuardConfig = StaticDecode<typeof ContentTypeGuard>;
export type MaxBodyGuardConfig = StaticDecode<typeof MaxBodyGuard>;

/** A named provider's entry: its secret or public key, the tolerance when it signs a timestamp, and its own keys. */
function presetSchema(preset: Preset): TObject {
  const asymmetric = ["ed25519", "ecdsa-p256", "rsa-sha256"].includes(preset.scheme.algorithm);
  const keys = asymmetric
    ? {
        public_key: t.Optional(t.String({ minLength: 1, description: preset.key })),
        public_key_env: t.Optional(t.String({ description: "environment variable holding the public key" })),
      }
    : secret(preset.key);
  const extra = Object.fromEntries(
    Object.entries(preset.extra ?? {}).map(([k, v]) => [
      k,
      v.required ? t.String({ minLength: 1, description: v.description }) : t.Optional(t.String({ minLength: 1, description: v.description })),
    ]),
  );
  const envExtra = Object.fromEntries(
    Object.keys(preset.extra ?? {}).map((k) => [`${k}_env`, t.Optional(t.String({ description: `environment variable holding ${k}` }))]),
  );
  const time: TProperties = preset.scheme.timestamp ? { tolerance: tolerance(preset.scheme.tolerance ?? "300s") } : {};
  return t.Object({ ...common(preset.kind), ...keys, ...time, ...extra, ...envExtra }, { ...strict, description: `${preset.title}: ${preset.source}` });
}

export const GUARD_KINDS: Record<string, TObject> = {
  ...Object.fromEntries([...PRESETS.values()].map((p) => [p.kind, presetSchema(p)])),
  scheme: SchemeGuard,
  "aws-sns": SnsGuard,
  paypal: PaypalGuard,
  hmac: HmacGuard,
  "basic-auth": BasicAuthGuard,
  token: TokenGuard,
  "ip-allow": IpAllowGuard,
  method: MethodGuard,
  "content-type": ContentTypeGuard,
  "max-body": MaxBodyGuard,
};

/** A preset's entry as createGuards hands it over (secret_env and public_key_env resolved, the tolerance in milliseconds). */
export type PresetGuardConfig = { name: string; kind: string; secret?: string; public_key?: string; tolerance?: number; [key: string]: unknown };

/** Kinds that only filter requests (by address, method, media type, size): passing them says nothing of who sent it. */
const FILTER_KINDS: ReadonlySet<string> = new Set(["ip-allow", "method", "content-type", "max-body"]);

/** Whether a guard of this kind authenticates the sender (each guard carries it as `authenticates`). */
export function kindAuthenticates(kind: string): boolean {
  return GUARD_KINDS[kind] !== undefined && !FILTER_KINDS.has(kind);
}
