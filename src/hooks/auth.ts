import { Elysia } from "elysia";
import { LOCAL_KEY_LABEL, type Config } from "../config/schema";
import { AppError, invalid } from "../lib/errors";
import { BODY_PROBLEM, parseJsonBytes } from "../lib/json";
import { repeatedParameters } from "../lib/query-int";
import { readBody } from "./read-body";
import { limitCaller } from "../lib/caller";
import { sha256Hex, tokenMatchesHash } from "../lib/secrets";
import type { KeyGrant } from "./api-key-store";

/** A key in memory; `grant` restricts it (a relay key), else it has full access. */
export type ApiKey = { label: string; sha256: string; grant?: KeyGrant };

/** The label of the key Mailroom generates for this machine's CLI (events name it "api:local"); on PostgreSQL "local@<host>:<data path>" (api-keys.ts). */
export const LOCAL_KEY = LOCAL_KEY_LABEL;

/** The config file's keys, with their hashes. */
export function configuredApiKeys(config: Config): ApiKey[] {
  return config.api_keys.map((k) => ({
    label: k.label,
    sha256: (k.token_sha256 ?? sha256Hex(k.token!)).toLowerCase(),
    ...(k.scopes ? { grant: { scopes: [...k.scopes], channels: [...(k.channels ?? [])] } } : {}),
  }));
}

/** Finds the key a token belongs to, comparing against every key in constant time. */
export function authenticate(keys: readonly ApiKey[], token: string | undefined): ApiKey | undefined {
  if (!token) return undefined;
  let found: ApiKey | undefined;
  for (const key of keys) if (tokenMatchesHash(token, key.sha256) && !found) found = key;
  return found;
}

const unauthenticated = (message: string) => new AppError("unauthenticated", message, { wwwAuthenticate: "Bearer" });

/** Bodies of the management API are small JSON objects. */
export const MANAGEMENT_MAX_BODY = 64 * 1024;

/**
 * The token of `Authorization: Bearer <token>`; the scheme is case-insensitive (RFC 7235). Only the
 * header counts: a token in the URL would end up in logs.
 */
export function bearerToken(header: string | null): string | undefined {
  return header ? /^bearer +(\S+) *$/i.exec(header)?.[1] : undefined;
}

/**
 * Whether the request carries a key's token now (an open stream asks again, and needs the answer
 * at once): checked against the keys in memory, which a key revoked here leaves at once; a change
 * by another process is noticed by the check this one starts in the background.
 */
export function admits(keys: KeySource, request: Request): boolean {
  keys.fresh?.().catch(() => {});
  const header = request.headers.get("authorization");
  const key = header === null ? undefined : authenticate(keys.keys, bearerToken(header));
  return key !== undefined && (!key.grant || channelScoped(key));
}

/** The answer to a scoped key on a route its scopes do not open (a relay key on the management API). */
export function outOfScope(key: ApiKey): AppError {
  const grant = key.grant!;
  return new AppError(
    "permission_denied",
    `API key "${key.label}" may only ${grant.scopes.join(", ")} (channels ${grant.channels.join(", ")}): this route needs a key without scopes`,
  );
}

/**
 * Throws permission_denied when the request's bearer token is a scoped key's (a relay key), on any
 * route but the catching endpoint and those of `ownTokens` (the translation API, whose tokens are
 * its own: it answers any other token 401). Keys known to this instance only: a key made elsewhere
 * a moment ago is refused by the route's own check.
 */
export function refuseScopedKey(keys: KeySource, request: Request, ownTokens: (path: string) => boolean): void {
  // Without a scoped key, nothing to hash the token against.
  if (!keys.keys.some((k) => k.grant)) return;
  const key = authenticate(keys.keys, bearerToken(request.headers.get("authorization")!));
  if (!key?.grant) return;
  const path = new URL(request.url).pathname;
  if (path !== "/" && !ownTokens(path) && !opens(key.grant, request.method, path)) throw outOfScope(key);
}

/**
 * Throws unauthenticated unless the request carries a key's token, permission_denied when the key
 * is scoped (a relay key opens the relay endpoint only); rejects with the database's error.
 */
async function check(keys: KeySource, request: Request): Promise<ApiKey> {
  const key = await findKey(keys, request);
  if (key.grant) {
    if (!opens(key.grant, request.method, new URL(request.url).pathname)) throw outOfScope(key);
    // A key scoped to channels sees only them, in every store read this request makes.
    limitCaller(key.grant.channels, new URL(request.url).pathname, `api:${key.label}`);
  }
  return key;
}

/** The routes a key scoped to channels may use: its hooks, channels, refusals, stream, unread counts and views. */
const CHANNEL_ROUTES = /^\/v1\/(hooks|refusals|stream|unread|views)(\/|$)|^\/v1\/channels(\/[^/]+(\/(pause|resume|dedup|response))?)?$/;
const SAFE = new Set(["GET", "HEAD"]);

/**
 * Whether a scoped key may make this request: a key scoped to channels (`read`, and `act` to act)
 * the routes of hooks, channels (reading, pause, resume), refusals, the stream and views; a relay
 * key (`relay`) none here (it opens the relay endpoint, relay/endpoint.ts).
 */
export function opens(grant: KeyGrant, method: string, path: string): boolean {
  if (!grant.scopes.includes("read") || !CHANNEL_ROUTES.test(path)) return false;
  if (SAFE.has(method)) return true;
  if (!grant.scopes.includes("act")) return false;
  return !path.startsWith("/v1/channels") || /\/(pause|resume)$/.test(path);
}

/** Whether a key is scoped to channels for reading and acting (not a relay key, not full access). */
export const channelScoped = (key: ApiKey | undefined): boolean => key?.grant?.scopes.includes("read") === true;

/** The key of the request's bearer token, whatever its scopes; throws unauthenticated. */
export async function findKey(keys: KeySource, request: Request): Promise<ApiKey> {
  const header = request.headers.get("authorization");
  if (!header) throw unauthenticated("missing Authorization: Bearer <token>");
  const token = bearerToken(header);
  // A token re-issued by `mailroom token reset` (another process) is found by reading the keys again.
  await keys.fresh?.();
  const key = authenticate(keys.keys, token) ?? (keys.reload && token ? authenticate((keys.keys = await keys.reload()), token) : undefined);
  if (!key) throw unauthenticated("invalid bearer token");
  await keys.used?.(key);
  return key;
}

/**
 * The keys a request is checked against, in memory; `reload` reads them again when a token matches
 * none, `fresh` reads them again when another process may have changed them, and `used` is told of
 * every key that opened a request (its last use).
 */
export type KeySource = {
  keys: readonly ApiKey[];
  reload?: () => Promise<readonly ApiKey[]>;
  used?: (key: ApiKey) => Promise<void>;
  fresh?: () => Promise<void>;
};

/** The one management route whose body is not a small JSON value: it reads its JSON lines itself. */
export const IMPORT_PATH = "/v1/hooks/import";

/** Reads a management body within MANAGEMENT_MAX_BODY: a JSON value, or {} when empty (or left unread for an import). */
export async function parseBody(request: Request): Promise<unknown> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-ndjson" && request.method === "POST" && new URL(request.url).pathname === IMPORT_PATH) return {};
  const read = await readBody(request, MANAGEMENT_MAX_BODY);
  if (read === "too_large") throw new AppError("payload_too_large", `body larger than ${MANAGEMENT_MAX_BODY} bytes`);
  if (read === "aborted") throw invalid("the request body could not be read");
  if (read.byteLength === 0) return {};
  if (type !== "" && type !== "application/json") {
    throw new AppError("unsupported_media_type", "send the body as JSON (Content-Type: application/json)");
  }
  const parsed = parseJsonBytes(read);
  if (!parsed.ok) throw invalid(BODY_PROBLEM[parsed.why]);
  return parsed.value;
}

/**
 * How a caller signs in, as the plugin a route plugin uses first: `identify` finds who the caller
 * is (an API key's token for programs, requireApiKey; a session for people, the dashboard's gate)
 * or throws. It runs before the body is read (onParse) and again before validation (derive, for
 * requests without a body: `identify` remembers its answer per request), gives routes `actor` (the
 * name events record) and refuses a query parameter given twice. Routes shared by the management
 * API and the dashboard take a SignIn, so either mounts them.
 */
export function signIn(identify: (request: Request) => Promise<string>) {
  return new Elysia()
    .onParse({ as: "scoped" }, async ({ request }) => {
      await identify(request);
      return parseBody(request);
    })
    .derive({ as: "scoped" }, async ({ request }) => {
      const actor = await identify(request);
      refuseRepeatedParameters(request.url);
      return { actor };
    });
}

export type SignIn = ReturnType<typeof signIn>;

/** Requires `Authorization: Bearer <token>` on every route registered after it; `actor` is "api:<label>". */
export function requireApiKey(source: readonly ApiKey[] | KeySource): SignIn {
  const keys: KeySource = Array.isArray(source) ? { keys: source } : (source as KeySource);
  /** Keys found by onParse, so that derive does not hash the token a second time. */
  const checked = new WeakMap<Request, ApiKey>();
  return signIn(async (request) => {
    let key = checked.get(request);
    if (!key) checked.set(request, (key = await check(keys, request)));
    return `api:${key.label}`;
  });
}

/** A query parameter given twice is a 400: neither value would silently win over the other. */
export function refuseRepeatedParameters(url: string): void {
  const [name] = repeatedParameters(url);
  if (name !== undefined) throw invalid(`invalid query: ${name}: given more than once`);
}
