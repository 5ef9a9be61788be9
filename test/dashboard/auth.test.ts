import { describe, expect, test } from "bun:test";
import { throttledAddress } from "../../src/dashboard/routes/session";
import { createTestApp } from "../helpers/app";
import { ADMIN, AUTH, dashboardApp, MEMBER, ORIGIN } from "./support";

describe("dashboard sessions", () => {
  test("signing in sets an HttpOnly, SameSite=Strict cookie that opens the dashboard endpoints", async () => {
    const app = await dashboardApp();
    const res = await app.call("POST", "/ui/api/session", ADMIN, ORIGIN);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ email: ADMIN.email, role: "admin" });
    const [cookie, device] = res.headers.getSetCookie();
    expect(cookie).toMatch(/^mailroom_session=mrs_[\w-]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(device).toMatch(/^mailroom_device=[\w-]+\.[\w-]+; Max-Age=31536000; Path=\/ui\/api; HttpOnly; SameSite=Strict$/);
    expect((await app.call("GET", "/ui/api/session", undefined, app.admin)).json).toEqual({ email: ADMIN.email, role: "admin" });
    expect((await app.call("GET", "/ui/api/channels", undefined, app.member)).status).toBe(200);
  });

  test("the cookie is Secure when the public URL is https", async () => {
    const app = createTestApp({ server: { public_url: "https://hooks.example.com" } });
    await app.dashboard.users.add(ADMIN.email, "admin", ADMIN.password);
    const res = await app.call("POST", "/ui/api/session", ADMIN, { origin: "https://hooks.example.com" });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toContain("; Secure");
  });

  test("a wrong password or an unknown e-mail gets the same 401", async () => {
    const app = await dashboardApp();
    const wrong = await app.call("POST", "/ui/api/session", { ...ADMIN, password: "wrong password" }, ORIGIN);
    const unknown = await app.call("POST", "/ui/api/session", { email: "nobody@example.com", password: "whatever1" }, ORIGIN);
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ code: 16, message: "wrong e-mail or password", details: [] });
    expect(unknown.json).toEqual(wrong.json);
    expect(wrong.headers.get("set-cookie")).toBeNull();
  });

  test("who am I: 204 without a body when nobody is signed in (no error for the sign-in page to log), 401 stays for the rest", async () => {
    const app = await dashboardApp();
    for (const cookie of [undefined, "mailroom_session=mrs_not-a-session"]) {
      const res = await app.call("GET", "/ui/api/session", undefined, cookie ? { cookie } : {});
      expect([res.status, res.text]).toEqual([204, ""]);
    }
    expect((await app.call("GET", "/ui/api/hooks")).status).toBe(401);
    await app.call("DELETE", "/ui/api/session", undefined, app.admin);
    expect((await app.call("GET", "/ui/api/session", undefined, app.admin)).status).toBe(204);
  });

  test("sign-out ends the session", async () => {
    const app = await dashboardApp();
    const out = await app.call("DELETE", "/ui/api/session", undefined, app.admin);
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toContain("mailroom_session=; Max-Age=0");
    expect((await app.call("GET", "/ui/api/hooks", undefined, app.admin)).status).toBe(401);
  });

  test("a session expires after a week", async () => {
    const app = await dashboardApp();
    app.clock.advance(7 * 24 * 3600 * 1000);
    const res = await app.call("GET", "/ui/api/hooks", undefined, app.admin);
    expect(res.status).toBe(401);
    expect(res.json.code).toBe(16);
  });

  test("a changed password or a removed user ends their sessions", async () => {
    const app = await dashboardApp();
    const again = await app.signIn(MEMBER);
    expect((await app.call("PUT", `/ui/api/users/${MEMBER.email}/password`, { password: "a new password" }, app.admin)).status).toBe(200);
    expect((await app.call("GET", "/ui/api/hooks", undefined, app.member)).status).toBe(401);
    expect((await app.call("GET", "/ui/api/hooks", undefined, again)).status).toBe(401);
    const renewed = await app.signIn({ email: MEMBER.email, password: "a new password" });
    expect((await app.call("DELETE", `/ui/api/users/${MEMBER.email}`, undefined, app.admin)).status).toBe(200);
    expect((await app.call("GET", "/ui/api/hooks", undefined, renewed)).status).toBe(401);
  });

  test("failed sign-ins are throttled per account with 429 and Retry-After, even with the right password", async () => {
    const app = await dashboardApp();
    for (let i = 0; i < 5; i++) expect((await app.call("POST", "/ui/api/session", { ...ADMIN, password: `wrong ${i}` }, ORIGIN)).status).toBe(401);
    const res = await app.call("POST", "/ui/api/session", ADMIN, ORIGIN);
    expect(res.status).toBe(429);
    expect(res.json.code).toBe(8);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    // The other account is not locked out; the window passes.
    expect((await app.call("POST", "/ui/api/session", MEMBER, ORIGIN)).status).toBe(200);
    app.clock.advance(15 * 60 * 1000);
    expect((await app.call("POST", "/ui/api/session", ADMIN, ORIGIN)).status).toBe(200);
  });

  test("five wrong passwords from one ip do not lock the account's owner out elsewhere; guessing from many ips still stops", async () => {
    const app = await dashboardApp({ server: { trust_proxy: true } });
    const from = (ip: string) => ({ ...ORIGIN, "x-forwarded-for": ip });
    for (let i = 0; i < 5; i++) expect((await app.call("POST", "/ui/api/session", { ...ADMIN, password: `wrong ${i}` }, from("203.0.113.9"))).status).toBe(401);
    expect((await app.call("POST", "/ui/api/session", ADMIN, from("203.0.113.9"))).status).toBe(429);
    expect((await app.call("POST", "/ui/api/session", ADMIN, from("198.51.100.7"))).status).toBe(200);
    // 45 more failures, 3 from each of 15 ips (under the per-ip and per-account-and-ip limits): 50 in all.
    for (let n = 0; n < 15; n++) {
      for (let i = 0; i < 3; i++) expect((await app.call("POST", "/ui/api/session", { ...ADMIN, password: "wrong" }, from(`192.0.2.${n}`))).status).toBe(401);
    }
    const res = await app.call("POST", "/ui/api/session", ADMIN, from("198.51.100.8"));
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    app.clock.advance(15 * 60 * 1000);
    expect((await app.call("POST", "/ui/api/session", ADMIN, from("198.51.100.8"))).status).toBe(200);
  }, 60_000); // 50 argon2id verifications

  test("sign-ins from one IPv6 /64 count as one address", async () => {
    expect(throttledAddress("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(throttledAddress("2001:0db8:0001:0002:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(throttledAddress("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(throttledAddress("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(throttledAddress("::ffff:192.0.2.1")).toBe("::ffff:192.0.2.1");
    expect(throttledAddress("192.0.2.1")).toBe("192.0.2.1");
    const app = await dashboardApp({ server: { trust_proxy: true } });
    for (let i = 0; i < 5; i++) {
      const from = { ...ORIGIN, "x-forwarded-for": `2001:db8:1:2::${i + 1}` };
      expect((await app.call("POST", "/ui/api/session", { ...ADMIN, password: "wrong" }, from)).status).toBe(401);
    }
    expect((await app.call("POST", "/ui/api/session", ADMIN, { ...ORIGIN, "x-forwarded-for": "2001:db8:1:2:ffff::9" })).status).toBe(429);
    expect((await app.call("POST", "/ui/api/session", ADMIN, { ...ORIGIN, "x-forwarded-for": "2001:db8:1:3::9" })).status).toBe(200);
  }, 30_000);

  test("failed sign-ins are throttled per ip across accounts", async () => {
    const app = await dashboardApp();
    for (let i = 0; i < 20; i++) await app.call("POST", "/ui/api/session", { email: `u${i}@example.com`, password: "wrong one" }, ORIGIN);
    expect((await app.call("POST", "/ui/api/session", MEMBER, ORIGIN)).status).toBe(429);
  }, 30_000); // 20 argon2id verifications
});

describe("dashboard and API credentials are separate", () => {
  test("a bearer token never opens the dashboard endpoints", async () => {
    const app = await dashboardApp();
    // "Who am I" says nobody is signed in (204); the rest refuse.
    expect((await app.call("GET", "/ui/api/session", undefined, AUTH)).status).toBe(204);
    for (const path of ["/ui/api/hooks", "/ui/api/channels", "/ui/api/refusals", "/ui/api/users", "/ui/api/info"]) {
      const res = await app.call("GET", path, undefined, AUTH);
      expect(res.status).toBe(401);
      expect(res.json.code).toBe(16);
    }
  });

  test("a session cookie never opens /v1", async () => {
    const app = await dashboardApp();
    const res = await app.call("GET", "/v1/hooks", undefined, app.admin);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
  });
});

describe("cross-site requests", () => {
  test("a state-changing request without this server's Origin is refused, and changes nothing", async () => {
    const app = await dashboardApp();
    const [id] = await app.catchHooks("orders", 1);
    const cookie = { cookie: app.admin.cookie! };
    for (const headers of [cookie, { ...cookie, origin: "https://evil.example" }, { ...cookie, origin: "null" }]) {
      const res = await app.call("POST", `/ui/api/hooks/${id}/discard`, undefined, headers);
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ code: 7, message: "cross-origin request refused: send it from the dashboard (Origin must be this server)", details: [] });
    }
    expect((await app.call("GET", `/ui/api/hooks/${id}`, undefined, cookie)).json.status).toBe("pending");
    expect((await app.call("POST", "/ui/api/session", ADMIN, { origin: "https://evil.example" })).status).toBe(403);
  });
});

describe("roles", () => {
  test("members watch and act on hooks, but cannot reach users", async () => {
    const app = await dashboardApp();
    const [id] = await app.catchHooks("orders", 1);
    expect((await app.call("GET", "/ui/api/users", undefined, app.member)).status).toBe(403);
    expect((await app.call("POST", "/ui/api/users", { email: "x@example.com", role: "admin", password: "12345678" }, app.member)).json.code).toBe(7);
    const res = await app.call("POST", `/ui/api/hooks/${id}/process`, undefined, app.member);
    expect(res.status).toBe(200);
    expect(res.json.events).toEqual([expect.objectContaining({ kind: "handled", actor: MEMBER.email })]);
  });

  test("Save as fixture: a member downloads a hook's fixture; without a session, 401", async () => {
    const app = await dashboardApp();
    const [id] = await app.catchHooks("orders", 1);
    const res = await app.call("GET", `/ui/api/hooks/${id}/fixture`, undefined, app.member);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ mailroom_fixture: 1, channel: "orders", scrub: true, source: { hook_id: id } });
    expect((await app.call("GET", `/ui/api/hooks/${id}/fixture`)).status).toBe(401);
  });

  test("admins list, add and remove users; users of the config file are read-only", async () => {
    const hash = await Bun.password.hash("configured password");
    const app = await dashboardApp({ users: [{ email: "ops@example.com", role: "admin", password_hash: hash }] });
    const added = await app.call("POST", "/ui/api/users", { email: "New@Example.com", role: "member", password: "long enough" }, app.admin);
    expect(added.json).toEqual({ email: "new@example.com", role: "member", read_only: false, created_at: expect.any(String) });
    const list = (await app.call("GET", "/ui/api/users", undefined, app.admin)).json;
    expect(list.map((u: any) => [u.email, u.read_only])).toEqual([
      [ADMIN.email, false],
      [MEMBER.email, false],
      ["new@example.com", false],
      ["ops@example.com", true],
    ]);
    expect(JSON.stringify(list)).not.toContain("argon2");
    expect((await app.call("DELETE", "/ui/api/users/ops@example.com", undefined, app.admin)).status).toBe(409);
    expect((await app.call("DELETE", `/ui/api/users/${ADMIN.email}`, undefined, app.admin)).status).toBe(409);
    expect((await app.call("POST", "/ui/api/users", { email: "new@example.com", role: "member", password: "long enough" }, app.admin)).status).toBe(409);
    expect((await app.signIn({ email: "ops@example.com", password: "configured password" })).cookie).toBeDefined();
  });
});

describe("first admin", () => {
  test("the setup token creates the first admin once, and signs them in", async () => {
    const app = createTestApp();
    const token = (await app.dashboard.setup.issue())!.token!;
    expect(token).toMatch(/^setup_/);
    expect((await app.call("GET", "/ui/api/setup", undefined, {})).json).toEqual({ needed: true });
    const bad = await app.call("POST", "/ui/api/setup", { token: "setup_wrong", ...ADMIN }, ORIGIN);
    expect(bad.status).toBe(401);
    const res = await app.call("POST", "/ui/api/setup", { token, ...ADMIN }, ORIGIN);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ email: ADMIN.email, role: "admin" });
    expect(res.headers.get("set-cookie")).toContain("mailroom_session=mrs_");
    expect((await app.call("POST", "/ui/api/setup", { token, ...MEMBER }, ORIGIN)).status).toBe(409);
    expect(await app.dashboard.setup.issue()).toBeUndefined();
    expect((await app.call("GET", "/ui/api/setup", undefined, {})).json).toEqual({ needed: false });
  });

  test("two people opening one setup link at once: one becomes the admin, the other is told the link is void", async () => {
    const app = createTestApp();
    const token = (await app.dashboard.setup.issue())!.token!;
    // Both pass the link's check before either stored its user (the password hash takes a while).
    const answers = await Promise.all(
      ["first@example.com", "second@example.com", "third@example.com"].map((email) =>
        app.call("POST", "/ui/api/setup", { token, email, password: "long enough password" }, ORIGIN),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
    expect(answers.find((a) => a.status === 401)!.json.message).toStartWith("this setup link is void");
    const admins = (await app.dashboard.users.list()).map((u) => `${u.email} ${u.role}`);
    expect(admins).toEqual([`${answers.find((a) => a.status === 200)!.json.email} admin`]);
  });

  test("a setup link is valid until used or expired; the setup page can ask at once whether it is void", async () => {
    const app = createTestApp();
    const check = async (token: string) => app.call("POST", "/ui/api/setup/check", { token }, ORIGIN);
    const first = (await app.dashboard.setup.issue())!;
    expect(first.expiresAt).toBe(app.clock.now() + 24 * 3600_000);
    expect((await check(first.token!)).json).toEqual({ valid: true });
    // A restart with the token kept in the credentials file prints the same link.
    expect(await app.dashboard.setup.issue({ saved: first.token })).toEqual(first);
    // On shared storage, an instance without the token keeps the pending link (another instance printed it).
    expect(await app.dashboard.setup.issue({ shared: true })).toEqual({ expiresAt: first.expiresAt });
    expect((await check(first.token!)).status).toBe(200);
    // Without it, on its own data file, a new link replaces the old one, which is void at once.
    const second = (await app.dashboard.setup.issue({ saved: "setup_lost" }))!;
    expect(second.token).not.toBe(first.token);
    const voided = await check(first.token!);
    expect(voided.status).toBe(401);
    expect(voided.json.message).toStartWith("this setup link is void");
    expect((await app.call("POST", "/ui/api/setup", { token: first.token, ...ADMIN }, ORIGIN)).status).toBe(401);
    // Expired: said so, with when, and the way out.
    app.clock.advance(24 * 3600_000);
    const expired = await check(second.token!);
    expect(expired.status).toBe(401);
    expect(expired.json.message).toBe(
      `this setup link expired at ${new Date(second.expiresAt).toISOString()}: restart Mailroom for a new one, or run \`mailroom user add EMAIL --role admin\``,
    );
    // A new start makes a new one, which works once.
    const third = (await app.dashboard.setup.issue({ saved: second.token }))!;
    expect(third.token).not.toBe(second.token);
    expect((await app.call("POST", "/ui/api/setup", { token: third.token, ...ADMIN }, ORIGIN)).status).toBe(200);
    const used = await check(third.token!);
    expect([used.status, used.json.message]).toEqual([409, "the first admin exists already: sign in"]);
  });
});

describe("bad input gets the documented error body", () => {
  test.each([
    ["POST", "/ui/api/session", "{", "not valid JSON"],
    ["POST", "/ui/api/session", { email: "not-an-email", password: "x" }, "email: must be an e-mail address"],
    ["POST", "/ui/api/session", { email: "a@b.c", password: "x", extra: 1 }, "unknown field"],
    ["POST", "/ui/api/session", [1, 2], "invalid"],
    ["POST", "/ui/api/setup", { token: 5, email: "a@b.c", password: "x" }, "token"],
  ])("%s %s %j", async (method, path, body, words) => {
    const app = await dashboardApp();
    const res = await app.call(method, path, body, ORIGIN);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe(3);
    expect(res.json.message).toContain(words);
  });

  test("bad ids, queries and short passwords", async () => {
    const app = await dashboardApp();
    expect((await app.call("GET", "/ui/api/hooks/nope", undefined, app.admin)).json.code).toBe(3);
    expect((await app.call("GET", "/ui/api/hooks?limit=0", undefined, app.admin)).json.code).toBe(3);
    expect((await app.call("GET", "/ui/api/hooks?status=x&status=y", undefined, app.admin)).json.code).toBe(3);
    const short = await app.call("POST", "/ui/api/users", { email: "s@example.com", role: "member", password: "short" }, app.admin);
    expect(short.status).toBe(400);
    expect(short.json.message).toContain("at least 8");
    const role = await app.call("POST", "/ui/api/users", { email: "s@example.com", role: "root", password: "long enough" }, app.admin);
    expect(role.status).toBe(400);
    expect((await app.call("POST", "/ui/api/session", "x".repeat(70_000), { ...ORIGIN, "content-type": "application/json" })).status).toBe(413);
  });
});
