import { Elysia } from "elysia";
import type { Config } from "../config/schema";
import type { Db } from "../db/open";
import { AppError, invalid } from "../lib/errors";
import { BODY_PROBLEM, parseJsonBytes } from "../lib/json";
import { repeatedParameters } from "../lib/query-int";
import { readBody } from "./read-body";
import { randomToken, sha256Hex, tokenMatchesHash } from "../lib/secrets";
import { apiKeys } from "../db/schema";

export type ApiKey = { label: string; sha256: string };

/**
 * The management API's keys: those of the config file, and the one Mailroom generated on a first
 * start that had none configured (only its hash is stored). Returns the new token when it
 * generated one, so main.ts can print it once.
 */
export function resolveApiKeys(config: Config, db: Db, now: number): { keys: ApiKey[]; generated?: { label: string; token: string } } {
  const configured = config.api_keys.map((k) => ({ label: k.label, sha256: (k.token_sha256 ?? sha256Hex(k.token!)).toLowerCase() }));
  if (configured.length > 0) return { keys: configured };
  const stored = db.select().from(apiKeys).all();
  if (stored.length > 0) return { keys: stored.map((k) => ({ label: k.label, sha256: k.tokenSha256 })) };
  const token = randomToken("mr_");
  db.insert(apiKeys).values({ label: "local", tokenSha256: sha256Hex(token), createdAt: now }).run();
  return { keys: [{ label: "local", sha256: sha256Hex(token) }], generated: { label: "local", token } };
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

/** Throws unauthenticated unless the request carries a configured key's token. */
function check(keys: readonly ApiKey[], request: Request): ApiKey {
  const header = request.headers.get("authorization");
  if (!header) throw unauthenticated("missing Authorization: Bearer <token>");
  const key = authenticate(keys, bearerToken(header));
  if (!key) throw unauthenticated("invalid bearer token");
  return key;
}

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
export function requireApiKey(keys: readonly ApiKey[]) {
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
