import { Elysia } from "elysia";
import { LOCAL_KEY_LABEL, type Config } from "../config/schema";
import type { Db } from "../db/open";
import { AppError, invalid } from "../lib/errors";
import { BODY_PROBLEM, parseJsonBytes } from "../lib/json";
import { repeatedParameters } from "../lib/query-int";
import { readBody } from "./read-body";
import { randomToken, sha256Hex, tokenMatchesHash } from "../lib/secrets";
import { apiKeys } from "../db/schema";
import { eq } from "drizzle-orm";

export type ApiKey = { label: string; sha256: string };

/** The label of the key Mailroom generates for this machine's CLI (events name it "api:local"). */
export const LOCAL_KEY = LOCAL_KEY_LABEL;

/** The stored keys (the generated local one), as the database holds them. */
export function storedApiKeys(db: Db): ApiKey[] {
  return db.select().from(apiKeys).all().map((k) => ({ label: k.label, sha256: k.tokenSha256 }));
}

/**
 * A new local token: its hash replaces the stored one (the old token stops working at once, in a
 * running Mailroom too: see requireApiKey). Returns the token, to be shown or saved, never stored.
 */
export function issueLocalToken(db: Db, now: number): string {
  const token = randomToken("mr_");
  db.$client.transaction(() => {
    db.delete(apiKeys).where(eq(apiKeys.label, LOCAL_KEY)).run();
    db.insert(apiKeys).values({ label: LOCAL_KEY, tokenSha256: sha256Hex(token), createdAt: now }).run();
  })();
  return token;
}

/**
 * The management API's keys: those of the config file, and the local one Mailroom generates on
 * its first start (only its hash is stored) and keeps across restarts. Both work: the config's
 * keys are for other machines, the local one for the CLI beside the data file (the config check
 * reserves its label, so the two never collide). Returns the new token when it generated one now.
 */
export function resolveApiKeys(config: Config, db: Db, now: number): { keys: ApiKey[]; generated?: { label: string; token: string } } {
  const configured = config.api_keys.map((k) => ({ label: k.label, sha256: (k.token_sha256 ?? sha256Hex(k.token!)).toLowerCase() }));
  const stored = storedApiKeys(db);
  if (stored.some((k) => k.label === LOCAL_KEY)) return { keys: [...configured, ...stored.filter((k) => !configured.some((c) => c.label === k.label))] };
  const token = issueLocalToken(db, now);
  return { keys: [...configured, { label: LOCAL_KEY, sha256: sha256Hex(token) }], generated: { label: LOCAL_KEY, token } };
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

/** Whether the request carries a key's token now (an open stream asks again). */
export function admits(keys: KeySource, request: Request): boolean {
  try {
    check(keys, request);
    return true;
  } catch {
    return false;
  }
}

/** Throws unauthenticated unless the request carries a key's token. */
function check(keys: KeySource, request: Request): ApiKey {
  const header = request.headers.get("authorization");
  if (!header) throw unauthenticated("missing Authorization: Bearer <token>");
  const token = bearerToken(header);
  // A token re-issued by `mailroom token reset` (another process) is found by reading the keys again.
  keys.fresh?.();
  const key = authenticate(keys.keys, token) ?? (keys.reload && token ? authenticate((keys.keys = keys.reload()), token) : undefined);
  if (!key) throw unauthenticated("invalid bearer token");
  keys.used?.(key);
  return key;
}

/**
 * The keys a request is checked against; `reload` reads them again when a token matches none, and
 * `used` is told of every key that opened a request (its last use).
 */
export type KeySource = { keys: readonly ApiKey[]; reload?: () => readonly ApiKey[]; used?: (key: ApiKey) => void; fresh?: () => void };

/** Reads a management body within MANAGEMENT_MAX_BODY: a JSON value, or {} when empty. */
export async function parseBody(request: Request): Promise<unknown> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
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
 * Requires `Authorization: Bearer <token>` on every route registered after it. Credentials are
 * checked before the body is read (onParse) and again before validation (derive, for requests
 * without a body), which also gives routes `actor` ("api:<label>") and refuses a query parameter
 * given twice.
 */
export function requireApiKey(source: readonly ApiKey[] | KeySource) {
  const keys: KeySource = Array.isArray(source) ? { keys: source } : (source as KeySource);
  /** Keys found by onParse, so that derive does not hash the token a second time. */
  const checked = new WeakMap<Request, ApiKey>();
  return new Elysia()
    .onParse({ as: "scoped" }, async ({ request }) => {
      checked.set(request, check(keys, request));
      return parseBody(request);
    })
    .derive({ as: "scoped" }, ({ request }) => {
      const key = checked.get(request) ?? check(keys, request);
      refuseRepeatedParameters(request.url);
      return { actor: `api:${key.label}` };
    });
}

/** A query parameter given twice is a 400: neither value would silently win over the other. */
export function refuseRepeatedParameters(url: string): void {
  const [name] = repeatedParameters(url);
  if (name !== undefined) throw invalid(`invalid query: ${name}: given more than once`);
}
