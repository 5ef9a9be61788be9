import { Elysia, t } from "elysia";
import { parseIp } from "../../hooks/guards/cidr";
import { AppError } from "../../lib/errors";
import { ErrorBody, NoBody, NoQuery } from "../../hooks/model";
import { cookieValue, SESSION_COOKIE, sessionCookie } from "../sessions";
import { DEVICE_COOKIE, deviceCookie } from "../devices";
import { EMAIL_PATTERN, type User } from "../users";
import type { DashboardDeps } from "../deps";

const strict = { additionalProperties: false } as const;
const Email = t.String({ maxLength: 254, pattern: EMAIL_PATTERN, error: "email: must be an e-mail address" });
const Password = t.String({ maxLength: 1024, error: "password: must be a string of at most 1024 characters" });
const SetupToken = t.String({ maxLength: 200, error: "token: must be the setup token" });
export const Me = t.Object(
  {
    email: t.String(),
    role: t.Union([t.Literal("admin"), t.Literal("member")]),
    /** Present under `[dashboard] auth = "none"` when no one signed in: the dashboard shows a banner. */
    auth: t.Optional(t.Literal("none")),
  },
  strict,
);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody };

/**
 * Failed sign-ins allowed within the window: per account from one ip, per account from all ips,
 * per ip, and per device. The strict limit is per account and ip, so that someone elsewhere who
 * knows an e-mail address cannot lock its owner out with five wrong passwords; the account-wide
 * one still stops guessing spread over many addresses. A browser that signed in to the account
 * before shows its device cookie and is held to its own limit only (dashboard/devices.ts), so
 * failures from other addresses, however many, never keep it out.
 */
export const SIGN_IN_LIMITS = { accountFromIp: 5, account: 50, ip: 20, device: 5, windowMs: 15 * 60 * 1000 };

const me = (u: User) => ({ email: u.email, role: u.role });

/**
 * The address sign-ins are counted by: an IPv4 address as it is, an IPv6 address by its /64 (one
 * host usually holds a whole /64, and would otherwise have 2^64 addresses to spread guesses over).
 *
 *   throttledAddress("2001:db8:1:2:aaaa::1") === "2001:db8:1:2::/64"
 */
export function throttledAddress(ip: string): string {
  const bytes = parseIp(ip);
  const v4 = bytes !== undefined && bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (!bytes || v4) return ip;
  const groups = [0, 2, 4, 6].map((i) => ((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return `${groups.join(":")}::/64`;
}

/**
 * Signing in and out, and the first admin. Sign-in failures are throttled per account and per ip
 * (429 with Retry-After); a wrong e-mail and a wrong password get the same answer.
 */
export function sessionRoutes({ gate, sessions, users, setup, accountIpThrottle, accountThrottle, ipThrottle, deviceThrottle, devices, ipOf }: DashboardDeps) {
  /** Starts a session, and gives the browser a device cookie for this account (kept, or a new one). */
  async function signedIn(user: User, request: Request, set: { headers: Record<string, unknown> }, device?: string) {
    const secure = gate.secure(request);
    const kept = device ? cookieValue(request.headers.get("cookie"), DEVICE_COOKIE)! : await devices.issue(user.email);
    set.headers["set-cookie"] = [sessionCookie(await sessions.start(user), secure), deviceCookie(kept, secure)];
    return me(user);
  }
  /** A browser that signed in to this account before: its own failures are all that count. */
  async function signInFromDevice(device: string, body: { email: string; password: string }, request: Request, set: { headers: Record<string, unknown> }) {
    const key = `device:${device}`;
    const wait = deviceThrottle.wait(key);
    if (wait > 0) throw new AppError("rate_limited", `too many failed sign-ins: try again in ${wait} s`, { retryAfter: wait });
    const user = await users.verify(body.email, body.password);
    if (!user) {
      deviceThrottle.fail(key);
      throw new AppError("unauthenticated", "wrong e-mail or password");
    }
    deviceThrottle.clear(key);
    return await signedIn(user, request, set, device);
  }

  return new Elysia().use(
    new Elysia()
      .use(gate.openBody)
      // "Who am I", asked by every page load before anyone may have signed in: 204 (no body) when
      // nobody is, so the sign-in page opens without an error; 401 stays for what needs a session.
      .get(
        "/session",
        async ({ request, status }) => {
          const user = await sessions.userOf(cookieValue(request.headers.get("cookie"), SESSION_COOKIE));
          if (!user && gate.open) return { ...me(gate.local(request)), auth: "none" as const };
          return user ? me(user) : status(204, undefined);
        },
        { query: NoQuery, response: { 200: Me, 204: t.Undefined(), ...errors } },
      )
      .get("/setup", async () => ({ needed: await setup.needed() }), {
        query: NoQuery,
        response: { 200: t.Object({ needed: t.Boolean() }, strict), ...errors },
      })
      // The setup page asks at once, before the form is filled in, whether its link is still good.
      .post("/setup/check", async ({ body }) => (await setup.check(body.token), { valid: true }), {
        query: NoQuery,
        body: t.Object({ token: SetupToken }, strict),
        response: { 200: t.Object({ valid: t.Literal(true) }, strict), ...errors },
      })
      .post("/setup", async ({ body, request, set }) => await signedIn(await setup.complete(body.token, body.email, body.password), request, set), {
        query: NoQuery,
        body: t.Object({ token: SetupToken, email: Email, password: Password }, strict),
        response: { 200: Me, ...errors },
      })
      .post(
        "/session",
        async ({ body, request, set }) => {
          const device = await devices.verify(cookieValue(request.headers.get("cookie"), DEVICE_COOKIE), body.email);
          if (device) return signInFromDevice(device, body, request, set);
          const ip = throttledAddress(ipOf(request));
          const account = `account:${body.email.toLowerCase()}`;
          const accountFromIp = `${account}|ip:${ip}`;
          const wait = Math.max(accountIpThrottle.wait(accountFromIp), accountThrottle.wait(account), ipThrottle.wait(`ip:${ip}`));
          if (wait > 0) throw new AppError("rate_limited", `too many failed sign-ins: try again in ${wait} s`, { retryAfter: wait });
          const user = await users.verify(body.email, body.password);
          if (!user) {
            accountIpThrottle.fail(accountFromIp);
            accountThrottle.fail(account);
            ipThrottle.fail(`ip:${ip}`);
            throw new AppError("unauthenticated", "wrong e-mail or password");
          }
          accountIpThrottle.clear(accountFromIp);
          return await signedIn(user, request, set);
        },
        { query: NoQuery, body: t.Object({ email: Email, password: Password }, strict), response: { 200: Me, ...errors } },
      )
      .delete(
        "/session",
        async ({ request, set }) => {
          await sessions.end(cookieValue(request.headers.get("cookie"), SESSION_COOKIE));
          set.headers["set-cookie"] = sessionCookie(null, gate.secure(request));
          return {};
        },
        { query: NoQuery, body: NoBody, response: { 200: t.Object({}, strict), ...errors } },
      ),
  );
}
