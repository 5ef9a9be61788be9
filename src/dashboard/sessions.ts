import type { Clock } from "../lib/clock";
import { randomToken, sha256Hex } from "../lib/secrets";
import type { SessionStore } from "./store";
import { stampOf, type User, type Users } from "./users";

export const SESSION_COOKIE = "mailroom_session";
/** How long a session lasts after signing in. */
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * Sessions of the dashboard. The cookie holds a random token; only its SHA-256 is stored. A
 * session ends when it expires, on sign-out, when its user is removed or changes password.
 */
export function createSessions(deps: { store: SessionStore; clock: Clock; users: Users }) {
  const { store, clock, users } = deps;
  return {
    /** Starts a session; resolves to the cookie's token (never stored). */
    async start(user: User): Promise<string> {
      const token = randomToken("mrs_");
      const now = clock.now();
      await store.insertSession(
        { tokenSha256: sha256Hex(token), email: user.email, stamp: stampOf(user), createdAt: now, expiresAt: now + SESSION_TTL_MS },
        now,
      );
      return token;
    },
    /** The user of a live session, or undefined (an ended session is forgotten on the way). */
    async userOf(token: string | undefined): Promise<User | undefined> {
      if (!token || token.length > 200) return undefined;
      const hash = sha256Hex(token);
      const row = await store.getSession(hash);
      if (!row) return undefined;
      const user = await users.find(row.email);
      if (row.expiresAt <= clock.now() || !user || stampOf(user) !== row.stamp) {
        await store.deleteSession(hash);
        return undefined;
      }
      return user;
    },
    async end(token: string | undefined): Promise<void> {
      if (token) await store.deleteSession(sha256Hex(token));
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;

/** The value of one cookie of a Cookie header. */
export function cookieValue(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eqAt = part.indexOf("=");
    if (eqAt > 0 && part.slice(0, eqAt).trim() === name) return part.slice(eqAt + 1).trim();
  }
  return undefined;
}

/** Set-Cookie for a session (HttpOnly, SameSite=Strict, Secure over https), or to clear it. */
export function sessionCookie(token: string | null, secure: boolean): string {
  const attrs = ["Path=/", "HttpOnly", "SameSite=Strict", ...(secure ? ["Secure"] : [])];
  if (token === null) return [`${SESSION_COOKIE}=`, "Max-Age=0", ...attrs].join("; ");
  return [`${SESSION_COOKIE}=${token}`, `Max-Age=${SESSION_TTL_MS / 1000}`, ...attrs].join("; ");
}
