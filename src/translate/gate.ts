import type { TranslateConfig } from "../config/translate";
import type { Clock } from "../lib/clock";
import { BODY_PROBLEM, parseJsonBytes } from "../lib/json";
import { acceptsJson } from "./accept";
import type { Keyring, Principal } from "./auth";
import { presentedKey } from "./auth";
import { bad, translateError } from "./errors";
import { createRateLimiter } from "./rate-limit";
import { readBody } from "../hooks/read-body";

/** Which API a path belongs to: revision A, revision B, the translator or the admin API. */
export type Api = "A" | "B" | "translator" | "admin";

const A_PATH = /^\/v1\/(account|orders|translate|rates|calculate)(\/|$)/;
const under = (path: string, base: string) => path === base || path.startsWith(base + "/");

export function apiOf(path: string): Api | undefined {
  if (under(path, "/api/v1")) return "B";
  if (under(path, "/translator/v1")) return "translator";
  if (under(path, "/admin/v1")) return "admin";
  if (A_PATH.test(path)) return "A";
  return undefined;
}

const ROLE_OF: Record<Api, Principal["role"]> = { A: "customer", B: "customer", translator: "translator", admin: "admin" };
const FORBIDDEN: Record<Api, string> = {
  A: "this API is for customer keys",
  B: "this API is for customer keys",
  translator: "this resource is reserved for translators",
  admin: "this resource is reserved for administrators",
};
const isRates = (path: string) => path === "/v1/rates" || path === "/api/v1/rates";

/**
 * The checks every translation request passes before routing and body parsing, in this order:
 * 503 maintenance (not for admins), 406 Accept without JSON, 413 declared Content-Length over
 * the limit, 401 missing or unknown key (GET /rates needs none), 403 key of another role
 * (any key may read /rates), 429 over the per-key rate. Only the key lookup is async (keys of
 * accounts created through the admin API are stored).
 */
export function createGate({ config, keyring, clock }: { config: TranslateConfig; keyring: Keyring; clock: Clock }) {
  const principals = new WeakMap<Request, Principal>();
  const limit = createRateLimiter(config.rate_limit.requests, config.rate_limit.per);
  const maxBody = config.max_body;
  const retryAfter = String(Math.ceil(config.maintenance_retry_after / 1000));
  const tooLarge = () => translateError("payload_too_large", `the request body is larger than ${maxBody} bytes`);

  /** Throws the translation error of the first check that fails. */
  async function check(request: Request, api: Api, path: string, ip: string): Promise<void> {
    if (config.maintenance && api !== "admin") {
      throw translateError("unavailable", "the service is down for maintenance; try again later", { "retry-after": retryAfter });
    }
    if (!acceptsJson(request.headers.get("accept"))) throw translateError("not_acceptable", "this API answers application/json only");
    const length = request.headers.get("content-length");
    if (length !== null && Number(length) > maxBody) throw tooLarge();

    const presented = presentedKey(request.headers.get("authorization"));
    let principal: Principal | undefined;
    const challenge = { "www-authenticate": 'Basic realm="translate"' };
    if (presented === undefined) {
      if (!(isRates(path) && (request.method === "GET" || request.method === "HEAD"))) {
        throw translateError("unauthenticated", "missing API key: send Authorization: Basic base64(<key>:) or Bearer <key>", challenge);
      }
      principal = { role: "anonymous", key: `ip:${ip}` };
    } else {
      principal = await keyring(presented);
      if (!principal) throw translateError("unauthenticated", "invalid API key", challenge);
      if (principal.role !== ROLE_OF[api] && !isRates(path)) throw translateError("permission_denied", FORBIDDEN[api]);
    }
    const wait = limit(principal.key, clock.now());
    if (wait > 0) {
      throw translateError("rate_limited", "too many requests; slow down", { "retry-after": String(Math.ceil(wait / 1000)) });
    }
    principals.set(request, principal);
  }

  return {
    check,
    /** The caller the gate let through; routes only run after check() passed. */
    principal(request: Request): Principal {
      const p = principals.get(request);
      if (!p) throw new Error("translate: route reached without passing the gate");
      return p;
    },
    /**
     * Reads a JSON body within the size limit, counting a chunked body as it streams. An empty
     * body parses as null (then the route's schema answers INVALID_REQUEST).
     */
    async json(request: Request): Promise<unknown> {
      const bytes = await readBody(request, maxBody);
      if (bytes === "too_large") throw tooLarge();
      if (bytes === "aborted") throw bad("INVALID_JSON", "the request body could not be read");
      if (bytes.length === 0) return null;
      const parsed = parseJsonBytes(bytes);
      if (!parsed.ok) throw bad("INVALID_JSON", BODY_PROBLEM[parsed.why]);
      return parsed.value;
    },
  };
}

export type Gate = ReturnType<typeof createGate>;
