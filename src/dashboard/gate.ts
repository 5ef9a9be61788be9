import { Elysia } from "elysia";
import type { Config } from "../config/schema";
import { limitCaller } from "../lib/caller";
import { AppError } from "../lib/errors";
import { parseBody, refuseRepeatedParameters, signIn, type SignIn } from "../hooks/auth";
import { cookieValue, SESSION_COOKIE, type Sessions } from "./sessions";
import type { Role, User } from "./users";

/**
 * Who acts under `[dashboard] auth = "none"` (loopback only, no [[users]]): an admin no one signs
 * in as, whose e-mail events record.
 */
export const LOCAL_USER: User = { email: "local", role: "admin", passwordHash: "", source: "config", createdAt: 0 };

/** A Host header's name that only this machine reaches (a page of another site rebinding its name to 127.0.0.1 does not pass). */
const LOOPBACK_HOST = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/i;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * What every dashboard endpoint checks: a session cookie (a bearer token never counts here, and a
 * session never opens /v1), and for a request that changes something, an Origin that is this
 * server's own (or `[server] public_url`'s), so no other site can act with a user's cookie.
 */
export function createGate(deps: { config: Config; sessions: Sessions }) {
  const { sessions } = deps;
  const publicOrigin = deps.config.server.public_url?.origin;
  const users = new WeakMap<Request, User>();
  /** `[dashboard] auth = "none"`: no session needed (check-config allowed it: every listener is loopback). */
  const open = deps.config.dashboard.auth === "none";

  /** Under auth = "none": the local admin, for a request addressed to this machine by a loopback name. */
  function local(request: Request): User {
    if (!LOOPBACK_HOST.test(new URL(request.url).hostname))
      throw new AppError("permission_denied", 'auth = "none": the dashboard answers only at a loopback address (http://127.0.0.1, http://localhost)');
    return LOCAL_USER;
  }

  /** Throws permission_denied unless a state-changing request comes from this server's own pages. */
  function checkOrigin(request: Request): void {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.get("origin");
    if (origin !== null && (origin === new URL(request.url).origin || origin === publicOrigin)) return;
    throw new AppError("permission_denied", "cross-origin request refused: send it from the dashboard (Origin must be this server)");
  }

  /** The signed-in user; throws unauthenticated, or permission_denied (origin, role). */
  async function check(request: Request, role?: Role): Promise<User> {
    let user = users.get(request);
    if (!user) {
      user = await sessions.userOf(cookieValue(request.headers.get("cookie"), SESSION_COOKIE));
      if (!user && open) user = local(request);
      if (!user) throw new AppError("unauthenticated", "sign in to the dashboard first");
      checkOrigin(request);
      users.set(request, user);
    }
    // A member limited to channels sees only them, in every store read this request makes.
    limitCaller(user.channels, new URL(request.url).pathname, user.email);
    if (role === "admin" && user.role !== "admin") throw new AppError("permission_denied", "only an admin may do this");
    return user;
  }

  /**
   * Requires a session on every route registered after it, checked before the body is read, and
   * gives routes `actor`: the user's e-mail address, which events record.
   */
  function requireSession(role?: Role): SignIn {
    return signIn(async (request) => (await check(request, role)).email);
  }

  /** For routes open without a session (sign-in, first-admin setup): the Origin check and the body. */
  const openBody = new Elysia()
    .onParse({ as: "scoped" }, async ({ request }) => {
      checkOrigin(request);
      return parseBody(request);
    })
    .derive({ as: "scoped" }, ({ request }) => {
      checkOrigin(request);
      refuseRepeatedParameters(request.url);
      return {};
    });

  /** Whether cookies must be Secure: the request came over https, or the public URL is https. */
  const secure = (request: Request) => request.url.startsWith("https:") || publicOrigin?.startsWith("https:") === true;

  /**
   * For a live stream's periodic check, which must answer at once: the answer of the previous
   * check of the request's session (true until one came back), asking again each time. A
   * signed-out or removed user's stream ends at the check after the one that noticed.
   */
  function stillSignedIn(): (request: Request) => boolean {
    if (open) return () => true;
    const last = new WeakMap<Request, boolean>();
    return (request) => {
      sessions.userOf(cookieValue(request.headers.get("cookie"), SESSION_COOKIE)).then(
        (user) => last.set(request, user !== undefined),
        () => last.set(request, false),
      );
      return last.get(request) ?? true;
    };
  }

  return { open, local, check, checkOrigin, requireSession, openBody, secure, stillSignedIn, userOf: (request: Request) => users.get(request) };
}

export type Gate = ReturnType<typeof createGate>;
