import { Elysia } from "elysia";
import { bearer } from "@elysiajs/bearer";
import type { Config } from "../config/schema";
import type { Db } from "../db/open";
import { AppError } from "../lib/errors";
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

/**
 * Requires `Authorization: Bearer <token>` on every route registered after it, before the
 * request is validated; gives routes `actor` ("api:<label>").
 */
export function requireApiKey(keys: readonly ApiKey[]) {
  return new Elysia()
    .use(bearer())
    .derive({ as: "scoped" }, ({ bearer: token, request }) => {
      if (!request.headers.get("authorization")) throw unauthenticated("missing Authorization: Bearer <token>");
      const key = authenticate(keys, token);
      if (!key) throw unauthenticated("invalid bearer token");
      return { actor: `api:${key.label}` };
    });
}
