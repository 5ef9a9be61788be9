import { AUTH, createTestApp } from "../helpers/app";

export const ORIGIN = { origin: "http://localhost" };
export const ADMIN = { email: "ada@example.com", password: "correct horse battery" };
export const MEMBER = { email: "max@example.com", password: "another good one" };

/** A test app with an admin and a member; `as(who)` gives headers with that user's session cookie. */
export async function dashboardApp(raw: Record<string, any> = {}) {
  const app = createTestApp(raw);
  await app.dashboard.users.add(ADMIN.email, "admin", ADMIN.password);
  await app.dashboard.users.add(MEMBER.email, "member", MEMBER.password);
  async function signIn(who: { email: string; password: string }): Promise<Record<string, string>> {
    const res = await app.call("POST", "/ui/api/session", who, ORIGIN);
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
    const cookie = /^(mailroom_session=[^;]+)/.exec(res.headers.get("set-cookie") ?? "")![1]!;
    return { cookie, ...ORIGIN };
  }
  return { ...app, signIn, admin: await signIn(ADMIN), member: await signIn(MEMBER) };
}

export { AUTH };
