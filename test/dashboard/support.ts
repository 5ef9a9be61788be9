import { AUTH, createTestApp, type TestApp } from "../helpers/app";

export const ORIGIN = { origin: "http://localhost" };
export const ADMIN = { email: "ada@example.com", password: "correct horse battery" };
export const MEMBER = { email: "max@example.com", password: "another good one" };

/**
 * The two users' passwords as argon2id hashes at the lowest cost (8 KiB, one pass), made once: a
 * sign-in verifies with the cost its hash names, so it takes about 1 ms instead of about 150 ms
 * (a test of throttling signs in 50 times). Hashing at the real cost is what users.add does, which
 * the tests of adding users and changing passwords go through.
 */
const CHEAP = { algorithm: "argon2id", memoryCost: 8, timeCost: 1 } as const;
const HASHES = { [ADMIN.email]: Bun.password.hashSync(ADMIN.password, CHEAP), [MEMBER.email]: Bun.password.hashSync(MEMBER.password, CHEAP) };

/** A test app with an admin and a member (stored users), each signed in: `admin` and `member` are their headers. */
type Who = { email: string; password: string };
/** A test app with an admin and a member signed in (their cookie and origin headers). */
export type DashboardApp = TestApp & {
  signIn(who: Who): Promise<Record<string, string>>;
  admin: Record<string, string>;
  member: Record<string, string>;
};

export async function dashboardApp(raw: Record<string, any> = {}, opts: Parameters<typeof createTestApp>[1] = {}): Promise<DashboardApp> {
  const app = createTestApp(raw, opts);
  for (const [email, role] of [
    [ADMIN.email, "admin"],
    [MEMBER.email, "member"],
  ] as const) {
    await app.storage.dashboard.insertUser({ email, role, passwordHash: HASHES[email]!, createdAt: app.clock.now() });
  }
  async function signIn(who: { email: string; password: string }): Promise<Record<string, string>> {
    const res = await app.call("POST", "/ui/api/session", who, ORIGIN);
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
    const cookie = /^(mailroom_session=[^;]+)/.exec(res.headers.get("set-cookie") ?? "")![1]!;
    return { cookie, ...ORIGIN };
  }
  return { ...app, signIn, admin: await signIn(ADMIN), member: await signIn(MEMBER) };
}

export { AUTH };
