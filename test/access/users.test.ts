/** Members limited to channels in the users screen's API: added limited, limit changed and lifted; admins and config users not. */
import { expect, test } from "bun:test";
import { dashboardApp } from "../dashboard/support";

test("an admin limits a stored member to channels; the member sees only them from the next request", async () => {
  const app = await dashboardApp({ users: [{ email: "cfg@example.com", role: "member", password: "a config password", channels: ["github"] }] });
  await app.catchHooks("stripe-live", 1);
  await app.catchHooks("orders", 2);
  const added = await app.call(
    "POST",
    "/ui/api/users",
    { email: "Sam@example.com", role: "member", password: "limited member pass", channels: ["stripe-*"] },
    app.admin,
  );
  expect(added.json).toEqual({ email: "sam@example.com", role: "member", read_only: false, created_at: expect.any(String), channels: ["stripe-*"] });
  const bad = await app.call("POST", "/ui/api/users", { email: "boss@example.com", role: "admin", password: "an admin password", channels: ["x"] }, app.admin);
  expect([bad.status, bad.json.message]).toEqual([400, expect.stringContaining("only a member")]);
  expect(
    (await app.call("POST", "/ui/api/users", { email: "x@example.com", role: "member", password: "a password!", channels: ["Bad Name"] }, app.admin)).status,
  ).toBe(400);

  const sam = await app.signIn({ email: "sam@example.com", password: "limited member pass" });
  const channels = async () => (await app.call("GET", "/ui/api/channels", undefined, sam)).json.map((c: { name: string }) => c.name);
  expect(await channels()).toEqual(["stripe-live"]);
  expect((await app.call("PUT", "/ui/api/users/sam@example.com/channels", { channels: ["orders"] }, app.admin)).json.channels).toEqual(["orders"]);
  expect(await channels()).toEqual(["orders"]);
  expect((await app.call("GET", "/ui/api/hooks", undefined, sam)).json).toHaveLength(2);
  const lifted = await app.call("PUT", "/ui/api/users/sam@example.com/channels", { channels: null }, app.admin);
  expect(lifted.json.channels).toBeUndefined();
  expect(await channels()).toEqual(["orders", "stripe-live"]);

  // Only an admin limits; a config file's user is limited there; an admin cannot be.
  expect((await app.call("PUT", "/ui/api/users/sam@example.com/channels", { channels: null }, app.member)).status).toBe(403);
  expect((await app.call("PUT", "/ui/api/users/cfg@example.com/channels", { channels: null }, app.admin)).status).toBe(409);
  expect((await app.call("PUT", "/ui/api/users/ada@example.com/channels", { channels: ["x"] }, app.admin)).status).toBe(400);
  expect((await app.call("PUT", "/ui/api/users/nobody@example.com/channels", { channels: null }, app.admin)).status).toBe(404);
  const listed = (await app.call("GET", "/ui/api/users", undefined, app.admin)).json;
  expect(listed.find((u: { email: string }) => u.email === "cfg@example.com")).toMatchObject({ read_only: true, channels: ["github"] });
});

test("the config file's limits are checked: channels are patterns, only members and read keys have them", async () => {
  const { buildConfig } = await import("../../src/load-config");
  const problems = (raw: Record<string, unknown>) => {
    try {
      buildConfig(raw);
      return [];
    } catch (error) {
      return (error as { problems: { path: string; message: string }[] }).problems.map((p) => `${p.path}: ${p.message}`);
    }
  };
  const user = (over: Record<string, unknown>) => ({ users: [{ email: "a@example.com", password: "a long password", ...over }] });
  expect(problems(user({ role: "member", channels: ["stripe-*", "github"] }))).toEqual([]);
  expect(problems(user({ role: "admin", channels: ["stripe-*"] }))).toEqual([
    "users[0].channels: only a member can be limited to channels (an admin manages every one)",
  ]);
  expect(problems(user({ channels: ["Stripe!"] })).join("\n")).toContain("users[0].channels[0]");
  const key = (over: Record<string, unknown>) => ({ api_keys: [{ label: "k", token: "0123456789", ...over }] });
  expect(problems(key({ scopes: ["read", "act"], channels: ["stripe-*"] }))).toEqual([]);
  expect(problems(key({ scopes: ["read"], channels: ["stripe-*"] }))).toEqual([]);
  expect(problems(key({ scopes: ["act"], channels: ["x"] }))).toEqual(['api_keys[0].scopes: a key that acts also reads: scopes = ["read", "act"]']);
  expect(problems(key({ scopes: ["relay", "read"], channels: ["x"] }))).toEqual(['api_keys[0].scopes: a relay key has scopes = ["relay"] alone']);
  expect(problems(key({ scopes: ["relay"], channels: ["x-*"] }))).toEqual(["api_keys[0].channels: a relay key names its channels, without *"]);
  expect(problems(key({ scopes: ["read"] }))).toEqual(["api_keys[0].channels: a key scoped to channels names them (glob patterns)"]);
});

test("an admin makes a key scoped to channels in the dashboard; it is listed with its scopes and sees only them", async () => {
  const app = await dashboardApp();
  await app.catchHooks("stripe-live", 1);
  await app.catchHooks("orders", 1);
  const made = await app.call("POST", "/ui/api/api-keys", { label: "payments", scopes: ["read", "act"], channels: ["stripe-*"] }, app.admin);
  const key = { authorization: `Bearer ${made.json.token}` };
  expect(made.json.token).toMatch(/^mr_/);
  expect(made.json).toMatchObject({ label: "payments", scopes: ["read", "act"], channels: ["stripe-*"] });
  expect((await app.call("GET", "/v1/hooks", undefined, key)).json.map((h: { channel: string }) => h.channel)).toEqual(["stripe-live"]);
  for (const body of [
    { label: "a", scopes: ["act"], channels: ["x"] },
    { label: "b", scopes: ["relay", "read"], channels: ["x"] },
    { label: "c", scopes: ["relay"], channels: ["x-*"] },
    { label: "d", scopes: ["read"] },
  ])
    expect([body.label, (await app.call("POST", "/ui/api/api-keys", body, app.admin)).status]).toEqual([body.label, 400]);
  expect((await app.call("POST", "/ui/api/api-keys", { label: "m", scopes: ["read"], channels: ["x"] }, app.member)).status).toBe(403);
});
