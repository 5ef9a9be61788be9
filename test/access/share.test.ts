/** Read-only share links: a hook's and a view's, opened without signing in, until they expire (fake clock) or are revoked. */
import { expect, test } from "bun:test";
import { ADMIN, dashboardApp, MEMBER } from "../dashboard/support";

const DAY = 86_400_000;

test("a hook's link opens without signing in, only at /ui/api/shared/{token}, until it expires; admins list and revoke", async () => {
  const app = await dashboardApp({ users: [{ email: "sam@example.com", role: "member", password: "limited member pass", channels: ["stripe-*"] }] });
  const [id] = await app.catchHooks("stripe-live", 1);
  const [other] = await app.catchHooks("orders", 1);
  const made = await app.call("POST", "/ui/api/share-links", { hook: id }, app.member);
  expect(made.json).toEqual({
    id: expect.stringMatching(/^sl_/),
    kind: "hook",
    hook: id,
    created_by: "max@example.com",
    created_at: new Date(app.clock.now()).toISOString(),
    expires_at: new Date(app.clock.now() + 7 * DAY).toISOString(),
    token: expect.stringMatching(/^mrl_[\w-]{43}$/),
    url: `/ui/share/${made.json.token}`,
  });
  const token = made.json.token as string;
  const opened = await app.call("GET", `/ui/api/shared/${token}`, undefined, {});
  expect(opened.status).toBe(200);
  expect(opened.json).toMatchObject({ kind: "hook", hook: { id, channel: "stripe-live" } });
  expect(opened.headers.get("cache-control")).toBe("no-store");
  // The token opens nothing else: not as a bearer token, not as a session cookie.
  for (const headers of [{ authorization: `Bearer ${token}` }, { cookie: `mailroom_session=${token}` }] as Record<string, string>[]) {
    expect((await app.call("GET", `/v1/hooks/${id}`, undefined, headers)).status).toBe(401);
    expect((await app.call("GET", `/ui/api/hooks/${id}`, undefined, headers)).status).toBe(401);
  }
  // A wrong token, and one a character off, are 404 with no detail.
  const missing = { code: 5, message: "not found", details: [] };
  for (const wrong of [`${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, "nonsense", "mrl_", "mrs_"])
    expect(await app.call("GET", `/ui/api/shared/${wrong}`, undefined, {})).toMatchObject({ status: 404, json: missing });

  // A limited member cannot share another channel's hook; nobody shares for more than 90 days.
  const sam = await app.signIn({ email: "sam@example.com", password: "limited member pass" });
  expect((await app.call("POST", "/ui/api/share-links", { hook: other }, sam)).status).toBe(404);
  expect((await app.call("POST", "/ui/api/share-links", { hook: id, days: 91 }, app.admin)).status).toBe(400);
  expect((await app.call("POST", "/ui/api/share-links", {}, app.admin)).status).toBe(400);
  const long = await app.call("POST", "/ui/api/share-links", { hook: id, days: 90 }, app.admin);
  expect(long.json.expires_at).toBe(new Date(app.clock.now() + 90 * DAY).toISOString());

  // Listed for admins (never the token), not for members.
  expect((await app.call("GET", "/ui/api/share-links", undefined, app.member)).status).toBe(403);
  const listed = (await app.call("GET", "/ui/api/share-links", undefined, app.admin)).json;
  expect(listed.map((l: { id: string }) => l.id).sort()).toEqual([made.json.id, long.json.id].sort());
  expect(JSON.stringify(listed)).not.toContain("mrl_");

  // Expiry: open until the 7th day ends, then 404 and unlisted.
  app.clock.advance(7 * DAY - 1);
  expect((await app.call("GET", `/ui/api/shared/${token}`, undefined, {})).status).toBe(200);
  app.clock.advance(1);
  expect(await app.call("GET", `/ui/api/shared/${token}`, undefined, {})).toMatchObject({ status: 404, json: missing });
  // Sessions have expired meanwhile: signed in again.
  const admin = await app.signIn(ADMIN);
  const member = await app.signIn(MEMBER);
  expect((await app.call("GET", "/ui/api/share-links", undefined, admin)).json.map((l: { id: string }) => l.id)).toEqual([long.json.id]);

  // Revoked: 404 at once; a member cannot revoke.
  expect((await app.call("DELETE", `/ui/api/share-links/${long.json.id}`, undefined, member)).status).toBe(403);
  expect((await app.call("GET", `/ui/api/shared/${long.json.token}`, undefined, {})).status).toBe(200);
  expect((await app.call("DELETE", `/ui/api/share-links/${long.json.id}`, undefined, admin)).status).toBe(204);
  expect(await app.call("GET", `/ui/api/shared/${long.json.token}`, undefined, {})).toMatchObject({ status: 404, json: missing });
  expect((await app.call("DELETE", `/ui/api/share-links/${long.json.id}`, undefined, admin)).status).toBe(404);
});

test("a view's link shows its hooks as they are when opened, within its creator's channels; the API makes links too", async () => {
  const app = await dashboardApp({ users: [{ email: "sam@example.com", role: "member", password: "limited member pass", channels: ["stripe-*"] }] });
  await app.catchHooks("stripe-live", 2);
  await app.catchHooks("orders", 2);
  const sam = await app.signIn({ email: "sam@example.com", password: "limited member pass" });
  expect((await app.call("POST", "/ui/api/views", { name: "pending", query: "status:pending" }, sam)).status).toBe(200);
  const link = (await app.call("POST", "/ui/api/share-links", { view: "pending" }, sam)).json;
  expect(link).toMatchObject({ kind: "view", view: "pending" });
  const shown = async () => (await app.call("GET", `/ui/api/shared/${link.token}`, undefined, {})).json;
  expect((await shown()).view.hooks.map((h: { channel: string }) => h.channel)).toEqual(["stripe-live", "stripe-live"]);
  await app.catchHooks("stripe-live", 1);
  await app.catchHooks("orders", 1);
  const now = await shown();
  expect([now.kind, now.view.name, now.view.query, now.view.hooks.length]).toEqual(["view", "pending", "status:pending", 3]);
  expect((await app.call("POST", "/ui/api/share-links", { view: "nope" }, sam)).status).toBe(404);
  // Under /v1 a key with full access makes, lists and revokes links.
  const byKey = await app.call("POST", "/v1/share-links", { view: "pending" });
  expect(byKey.status).toBe(404);
  const [id] = await app.catchHooks("orders", 1);
  const made = await app.call("POST", "/v1/share-links", { hook: id, days: 1 });
  expect(made.json).toMatchObject({ kind: "hook", hook: id, created_by: "api:test" });
  expect((await app.call("GET", "/v1/share-links")).json.some((l: { id: string }) => l.id === made.json.id)).toBe(true);
  expect((await app.call("DELETE", `/v1/share-links/${made.json.id}`)).status).toBe(204);
});
