import { Type as t, type Static } from "@sinclair/typebox";
import type { TObject } from "@sinclair/typebox";
import { Duration, Name, Size } from "./schema";

/**
 * Schema of a [[guards]] entry for each guard kind. Each includes `name` and `kind` and refuses
 * unknown keys; the loader picks the schema by `kind`. Secrets are optional here because the
 * loader resolves `secret_env` into `secret` first; the guard factory says when neither was given.
 */
const strict = { additionalProperties: false } as const;
const common = <K extends string>(kind: K) => ({
  name: Name("guard name, as listed in a channel's guards"),
  kind: t.Literal(kind, { description: "guard kind" }),
});
const secret = (description: string) => ({
  secret: t.Optional(t.String({ minLength: 1, description })),
  secret_env: t.Optional(t.String({ description: "environment variable holding the secret" })),
});
const tolerance = (def: string) => Duration(def, 'how far the signed timestamp may be from now, either way; "0s" turns the check off');

export const GithubGuard = t.Object({ ...common("github"), ...secret("the webhook's secret, as entered on GitHub") }, strict);

export const StripeGuard = t.Object({ ...common("stripe"), ...secret('the endpoint\'s signing secret, "whsec_..."'), tolerance: tolerance("300s") }, strict);

export const StandardWebhooksGuard = t.Object(
  {
    ...common("standard-webhooks"),
    ...secret('the signing secret, "whsec_" followed by base64 (as Svix and Standard Webhooks senders show it)'),
    tolerance: tolerance("300s"),
  },
  strict,
);

export const ShopifyGuard = t.Object(
  { ...common("shopify"), ...secret("the app's client secret, or the secret shown under Settings > Notifications > Webhooks") },
  strict,
);

export const SlackGuard = t.Object({ ...common("slack"), ...secret("the app's signing secret"), tolerance: tolerance("300s") }, strict);

const HEADER_NAME = "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$";
const HeaderName = (description: string) => t.String({ pattern: HEADER_NAME, description });

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

export type GithubGuardConfig = Static<typeof GithubGuard>;
export type StripeGuardConfig = Static<typeof StripeGuard>;
export type StandardWebhooksGuardConfig = Static<typeof StandardWebhooksGuard>;
export type ShopifyGuardConfig = Static<typeof ShopifyGuard>;
export type SlackGuardConfig = Static<typeof SlackGuard>;
export type HmacGuardConfig = Static<typeof HmacGuard>;
export type BasicAuthGuardConfig = Static<typeof BasicAuthGuard>;
export type TokenGuardConfig = Static<typeof TokenGuard>;
export type IpAllowGuardConfig = Static<typeof IpAllowGuard>;
export type MethodGuardConfig = Static<typeof MethodGuard>;
export type ContentTypeGuardConfig = Static<typeof ContentTypeGuard>;
export type MaxBodyGuardConfig = Static<typeof MaxBodyGuard>;

export const GUARD_KINDS: Record<string, TObject> = {
  github: GithubGuard,
  stripe: StripeGuard,
  "standard-webhooks": StandardWebhooksGuard,
  shopify: ShopifyGuard,
  slack: SlackGuard,
  hmac: HmacGuard,
  "basic-auth": BasicAuthGuard,
  token: TokenGuard,
  "ip-allow": IpAllowGuard,
  method: MethodGuard,
  "content-type": ContentTypeGuard,
  "max-body": MaxBodyGuard,
};
