import type { BasicAuthGuardConfig, TokenGuardConfig } from "./kinds";
import { constantTimeEqual, sha256Hex } from "../../lib/secrets";
import type { Guard } from "./types";
import { PASS, header, refuse, requireSecret, unauthenticated } from "./verdict";

/**
 * Compares a presented credential with the expected one through their SHA-256 digests, so that
 * neither where they differ nor the expected length shows in the time taken.
 */
function sameSecret(presented: string, expectedSha256: string): boolean {
  return constantTimeEqual(sha256Hex(presented), expectedSha256);
}

/** `Authorization: Basic base64(user:password)`; a failure carries the WWW-Authenticate challenge. */
export function createBasicAuthGuard(config: BasicAuthGuardConfig): Guard {
  const password = sha256Hex(requireSecret(config.password, "password"));
  const username = sha256Hex(config.username);
  const challenge = { "www-authenticate": `Basic realm="${config.realm.replaceAll('"', "")}", charset="UTF-8"` };
  return {
    name: config.name,
    kind: config.kind,
    authenticates: true,
    beforeBody: true,
    secretHeaders: ["authorization"],
    check({ headers }) {
      const given = header(headers, "authorization");
      if (given === undefined) return refuse(401, "missing Authorization header (Basic credentials)", challenge);
      const m = /^basic\s+([A-Za-z0-9+/=]+)$/i.exec(given);
      const decoded = m ? Buffer.from(m[1]!, "base64").toString("utf8") : "";
      const colon = decoded.indexOf(":");
      if (colon < 0) return refuse(401, 'Authorization must be "Basic <base64 of user:password>"', challenge);
      // Both halves are always compared, so the time does not tell a right user name from a wrong one.
      const userOk = sameSecret(decoded.slice(0, colon), username);
      const passwordOk = sameSecret(decoded.slice(colon + 1), password);
      return userOk && passwordOk ? PASS : refuse(401, "wrong user name or password", challenge);
    },
  };
}

/**
 * A shared token: in a header (by default `Authorization: Bearer <token>`; for another header the
 * whole value unless `scheme` is set), or in the query parameter named by `query`.
 */
export function createTokenGuard(config: TokenGuardConfig): Guard {
  const secret = sha256Hex(requireSecret(config.secret));
  const name = config.header.toLowerCase();
  const scheme = config.scheme ?? (name === "authorization" ? "Bearer" : "");
  const shown = name === "authorization" ? "Authorization" : config.header;
  const where = config.query !== undefined ? `query parameter ${config.query}` : `${shown} header`;
  return {
    name: config.name,
    kind: config.kind,
    authenticates: true,
    beforeBody: true,
    ...(config.query !== undefined ? { secretQuery: [config.query] } : { secretHeaders: [name] }),
    check({ headers, query }) {
      let token: string | undefined;
      if (config.query !== undefined) token = new URLSearchParams(query).get(config.query) ?? undefined;
      else {
        token = header(headers, name);
        if (token !== undefined && scheme !== "") {
          const [word, ...rest] = token.split(/\s+/);
          token = word!.toLowerCase() === scheme.toLowerCase() && rest.length === 1 ? rest[0] : undefined;
          if (token === undefined) return unauthenticated(`${shown} must be "${scheme} <token>"`);
        }
      }
      if (token === undefined || token === "") return unauthenticated(`missing ${where}`);
      return sameSecret(token, secret) ? PASS : unauthenticated(`wrong token in ${where}`);
    },
  };
}
