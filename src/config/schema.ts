import { Resign } from "./delivery";
import { Type as t, type Static, type StaticDecode } from "@sinclair/typebox";
import type { HandlerConfig } from "./handlers";
import type { HookMatcher } from "./checks";
import { Duration, DurationValue, Name, PublicUrlValue, Size, UrlPatternValue } from "./values";
import { TranslateSection } from "./translate";
import { DedupSetting, ResponseSetting } from "./misbehave";
import { Alert } from "./alerts";
import { Notifier } from "./notifiers";
import { TagRule } from "./tags";

export { Duration, Name, NAME_PATTERN, NAME_RULE, Size } from "./values";

/**
 * The TOML file's schema. Every key has a default and a description; objects refuse unknown
 * keys. Guards and handlers are checked per `kind` against GUARD_KINDS / HANDLER_KINDS by the
 * loader, since TypeBox's union errors would not say which key is wrong.
 */
const strict = { additionalProperties: false } as const;

const Server = t.Object(
  {
    host: t.String({ default: "127.0.0.1", description: "address to listen on" }),
    port: t.Integer({ minimum: 0, maximum: 65535, default: 8080, description: "port to listen on; 0 picks a free one" }),
    public_url: t.Optional(
      PublicUrlValue({
        description: "the URL senders and browsers reach this server at (the dashboard shows it; https makes the session cookie Secure)",
        problem: "must be an http:// or https:// URL",
      }),
    ),
    trust_proxy: t.Boolean({
      default: false,
      description: "take the sender ip from the right-most X-Forwarded-For entry (else the last Forwarded for=), which the proxy added",
    }),
    allow_link_local: t.Boolean({
      default: false,
      description:
        "let forward handlers, replays and edit-and-send reach link-local addresses (169.254.0.0/16, fe80::/10) and cloud metadata services (metadata.google.internal...)",
    }),
    public: t.Optional(
      t.Object(
        {
          host: t.String({ default: "127.0.0.1", description: "address of the public listener (a tunnel on this machine reaches 127.0.0.1)" }),
          port: t.Integer({ minimum: 0, maximum: 65535, description: "port of the public listener; 0 picks a free one" }),
        },
        {
          ...strict,
          description:
            "a second listener serving only what the internet should reach: the catching endpoint (provider handshakes and GET / included) and the relay endpoint; the dashboard and the APIs stay on [server] host:port",
        },
      ),
    ),
  },
  { ...strict, default: {} },
);

const Storage = t.Object(
  {
    path: t.String({ default: "data/mailroom.db", description: 'SQLite file; ":memory:" keeps nothing' }),
    durability: t.Union([t.Literal("full"), t.Literal("normal")], {
      default: "full",
      description: '"full": fsync at every commit; "normal": survives a process crash, not a power loss',
    }),
    batch_max: t.Integer({ minimum: 1, maximum: 10000, default: 512, description: "most hooks one group commit writes" }),
    url: t.Optional(
      t.String({
        pattern: "^postgres(ql)?://",
        description: 'PostgreSQL (15 or newer) instead of SQLite, "postgres://user:pass@host:5432/db"; several instances may share it',
        problem: 'must be a PostgreSQL URL, "postgres://user:pass@host:5432/database"',
      }),
    ),
    url_env: t.Optional(t.String({ description: "environment variable holding url (MAILROOM_DATABASE_URL also sets it)" })),
    attempt_lease: Duration(
      "30s",
      "PostgreSQL: how long a handler attempt stays claimed by an instance that stopped answering before another takes it over; also the lease of a running bulk job (docs/bulk.md)",
    ),
  },
  { ...strict, default: {} },
);

/**
 * The label of the key Mailroom generates for this machine's CLI (`mailroom token reset|show`);
 * reserved, so that a configured key cannot take its place.
 */
export const LOCAL_KEY_LABEL = "local";

/** The channels pattern of a limited user or key: a channel name in which `*` stands for any run of characters. */
export const CHANNEL_GLOB_PATTERN = "^[a-z0-9*]+([-_][a-z0-9*]+)*$";
const ChannelPattern = t.String({
  pattern: CHANNEL_GLOB_PATTERN,
  maxLength: 64,
  problem: 'must be a channel name, * standing for any characters ("stripe-*")',
});

const ApiKey = t.Object(
  {
    label: Name(`events name this caller "api:<label>"; "${LOCAL_KEY_LABEL}" is reserved for the generated local token`),
    token: t.Optional(t.String({ minLength: 8, description: "the bearer token" })),
    token_env: t.Optional(t.String({ description: "environment variable holding the token" })),
    token_sha256: t.Optional(t.String({ pattern: "^[0-9a-fA-F]{64}$", description: "hex SHA-256 of the token" })),
    scopes: t.Optional(
      t.Array(t.Union([t.Literal("relay"), t.Literal("read"), t.Literal("act")]), {
        minItems: 1,
        uniqueItems: true,
        description:
          'what the key may do; ["relay"]: relay its channels (mailroom listen) and nothing else; ["read"] or ["read", "act"]: read (and act on) the hooks of its channels and nothing else. Without scopes: full access',
        problem: 'must be ["relay"], ["read"] or ["read", "act"] (a key without scopes has full access)',
      }),
    ),
    channels: t.Optional(
      t.Array(ChannelPattern, {
        minItems: 1,
        uniqueItems: true,
        description: 'the channels a relay key may relay (names), or a read key may see (glob patterns, "stripe-*")',
      }),
    ),
  },
  strict,
);

/** The scopes an API key may be restricted to. */
export const KEY_SCOPES = ["relay", "read", "act"] as const;

const Hooks = t.Object(
  {
    max_body: Size("10MB", "larger requests get 413 and are not stored"),
    default_guards: t.Array(Name("guard name"), { default: [], uniqueItems: true, description: "guards of channels created by their first hook" }),
    default_handlers: t.Array(Name("handler name"), {
      default: [],
      uniqueItems: true,
      description: "handlers of channels not declared in [[channels]] (created by their first hook)",
    }),
    paused_retry_after: Duration("60s", "Retry-After sent with 503 by a paused channel"),
    retention: t.Optional(DurationValue({ description: "delete hooks older than this (finalized or not)", problem: 'must be a duration such as "30d"' })),
    max_hooks_per_channel: t.Optional(t.Integer({ minimum: 1, description: "keep at most this many hooks per channel, oldest deleted first" })),
  },
  { ...strict, default: {} },
);

const Channel = t.Object(
  {
    name: Name("channel name, as in ?channel="),
    guards: t.Array(Name("guard name"), { default: [], uniqueItems: true }),
    handlers: t.Array(Name("handler name"), { default: [], uniqueItems: true }),
    response: t.Optional(ResponseSetting),
    dedup: t.Optional(DedupSetting),
    resign: t.Optional(Resign),
    schemas: t.Optional(
      t.Record(t.String({ minLength: 1, maxLength: 129 }), t.String({ minLength: 1 }), {
        description:
          'JSON Schemas of this channel\'s hooks by event type: { "invoice.*" = "schemas/invoice.json" } (an exact type, a prefix with *, or *; paths relative to the config file; docs/contracts.md)',
      }),
    ),
  },
  strict,
);

const Metrics = t.Object(
  {
    enabled: t.Boolean({ default: true, description: "serve GET /metrics (Prometheus text format)" }),
    auth: t.Boolean({
      default: true,
      description: "require a management API token (Authorization: Bearer) for /metrics; false opens it to anyone who reaches it",
    }),
    listen: t.Optional(
      t
        .Transform(
          t.String({
            pattern: "^(\\[[0-9a-fA-F:.]+\\]|[^\\s:\\[\\]]+):(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})$",
            description: 'serve /metrics on this "host:port" of its own instead of the main listener',
            problem: 'must be "host:port", such as "127.0.0.1:9464"',
          }),
        )
        .Decode(splitListen)
        .Encode(({ host, port }) => (host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`)),
    ),
    channel_labels: t.Integer({
      minimum: 0,
      maximum: 10000,
      default: 100,
      description: 'channels not in the config that get a label of their own (the first to hold a hook); later ones are counted as "_other"',
    }),
    event_type_labels: t.Integer({
      minimum: 0,
      maximum: 10000,
      default: 100,
      description:
        'event types that get a label of their own in mailroom_hooks_caught_by_event_type_total (the first to be caught); later ones are counted as "_other"',
    }),
  },
  { ...strict, default: {} },
);

const User = t.Object(
  {
    email: t.String({
      pattern: "^[^\\s@]+@[^\\s@]+$",
      maxLength: 254,
      description: "the user's e-mail address, with which they sign in",
      problem: "must be an e-mail address",
    }),
    role: t.Union([t.Literal("admin"), t.Literal("member")], {
      default: "member",
      description: '"admin" (everything) or "member" (watch and act on hooks and orders)',
    }),
    password_hash: t.Optional(
      t.String({
        pattern: "^\\$argon2",
        description: "an argon2id hash of the password (as Bun.password.hash writes it)",
        problem: "must be an argon2 hash ($argon2id$...)",
      }),
    ),
    password: t.Optional(t.String({ minLength: 8, description: "the password; give it as password_env" })),
    password_env: t.Optional(t.String({ description: "environment variable holding the password" })),
    channels: t.Optional(
      t.Array(ChannelPattern, {
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
        description: 'a member limited to these channels (glob patterns, "stripe-*"): they see and act on nothing else. Absent: every channel',
      }),
    ),
  },
  strict,
);

const Relay = t.Object(
  {
    url: t.String({
      pattern: "^https?://[^\\s/?#]+(?:/[^\\s?#]*)?$",
      description: "the upstream Mailroom (its public listener, or the one listener), as https://hooks.example.com",
      problem: "must be an http:// or https:// URL",
    }),
    channels: t.Array(Name("channel name"), { minItems: 1, uniqueItems: true, description: "upstream channels to relay here, each stored under its own name" }),
    token: t.Optional(t.String({ minLength: 8, description: 'a relay key of upstream (scopes = ["relay"]) for these channels' })),
    token_env: t.Optional(t.String({ description: "environment variable holding the token" })),
    insecure: t.Optional(
      t.Boolean({ description: "allow a plain http:// url to a host that is not loopback: the token and the hooks cross the network unencrypted" }),
    ),
  },
  strict,
);

const Dashboard = t.Object(
  {
    auth: t.Optional(
      t.Union([t.Literal("password"), t.Literal("none")], {
        description:
          '"none" opens the dashboard without signing in (a banner says so), allowed only when every listener is on a loopback address and no [[users]] are configured; "password" requires a session. Unset: "none" when those hold and no user is stored, else "password"',
        problem: 'must be "password" or "none"',
      }),
    ),
    member_send_to: t.Array(UrlPatternValue('a URL pattern such as "http://localhost:*"'), {
      default: [],
      description:
        "URLs a member may send a hook to (replay, edit and send), as patterns with * for any part of the host, any port or any path; admins may send anywhere",
    }),
  },
  { ...strict, default: {} },
);

const FieldList = (what: string) =>
  t.Array(t.String({ minLength: 1, maxLength: 256 }), {
    default: [],
    description: `fields ${what} in a fixture (mailroom fixtures save): body.PATH (a dotted JSON path, * for any one segment), headers.NAME, query.NAME, or a header name`,
  });
const Fixtures = t.Object({ keep: FieldList("never scrubbed"), scrub: FieldList("always replaced by a placeholder") }, { ...strict, default: {} });
const Contracts = t.Object(
  {
    enabled: t.Boolean({
      default: true,
      description: "check each caught hook against its provider's or its channel's JSON Schema, after the sender was answered (docs/contracts.md)",
    }),
  },
  { ...strict, default: {} },
);

/** A guard or handler entry before its kind's own schema is applied. */
const Kinded = t.Object({ name: Name("name"), kind: t.String({ description: "kind" }) }, { additionalProperties: true });

export const ConfigSchema = t.Object(
  {
    server: Server,
    storage: Storage,
    api_keys: t.Array(ApiKey, { default: [] }),
    users: t.Array(User, { default: [], description: "dashboard users declared here (read-only in the dashboard)" }),
    hooks: Hooks,
    channels: t.Array(Channel, { default: [] }),
    guards: t.Array(Kinded, { default: [] }),
    handlers: t.Array(Kinded, { default: [] }),
    translate: TranslateSection,
    metrics: Metrics,
    relays: t.Array(Relay, { default: [], description: "upstream Mailrooms whose channels this one receives (mailroom listen)" }),
    dashboard: Dashboard,
    fixtures: Fixtures,
    alerts: t.Array(Alert, { default: [], description: "rules that open issues and notify when hooks stop, fail or change (docs/alerts.md)" }),
    notifiers: t.Array(Notifier, { default: [], description: "where alerts' notices go: Slack, Discord, Teams, a webhook, e-mail (docs/notifiers.md)" }),
    contracts: Contracts,
    tag_rules: t.Array(TagRule, { default: [], description: "tags put on hooks as they are caught, by query (docs/tags.md)" }),
  },
  strict,
);

/** The config as the file writes it, defaults filled in: durations and sizes as text. */
export type ConfigInput = Static<typeof ConfigSchema>;
/**
 * The config the code reads, as the loader leaves it: durations in milliseconds, sizes in bytes,
 * `[metrics] listen` as host and port, URL patterns compiled, each handler converted by its kind's
 * schema. Guards stay as written (their kinds' schemas are the guards' own: createGuards converts them).
 */
import type { CompiledSchema } from "./compiled-schema";
export type { CompiledSchema };
export type Config = Omit<StaticDecode<typeof ConfigSchema>, "handlers" | "tag_rules"> & {
  handlers: HandlerConfig[];
  /** `[[tag_rules]]`, each query compiled as a handler's `when`. */
  tag_rules: { query: string; tags: string[]; match: HookMatcher }[];
  /** Each channel's `schemas`, compiled in order (the first pattern matching a hook's event type wins). */
  channelSchemas?: Record<string, readonly { pattern: string; validate: CompiledSchema }[]>;
};
export type UserConfig = Static<typeof User>;
export type ApiKeyConfig = Static<typeof ApiKey>;
export type ChannelConfig = Static<typeof Channel>;
export type RelayConfig = Static<typeof Relay>;
export type AlertConfig = StaticDecode<typeof Alert>;
export type NotifierConfig = StaticDecode<typeof Notifier>;

/** Host and port of a `[metrics] listen` value the schema accepted ("[::1]:9464" gives "::1"). */
export function splitListen(listen: string): { host: string; port: number } {
  const colon = listen.lastIndexOf(":");
  return { host: listen.slice(0, colon).replace(/^\[(.*)\]$/, "$1"), port: Number(listen.slice(colon + 1)) };
}
