import { describe, expect, test } from "bun:test";
import { AUTH, dashboardApp } from "./support";

describe("API keys in the dashboard", () => {
  test("an admin creates a key: its token is shown once, opens /v1, events record api:<label>, and a revoked key gets 401", async () => {
    const app = await dashboardApp();
    const created = await app.call("POST", "/ui/api/api-keys", { label: "deploy-bot" }, app.admin);
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ label: "deploy-bot", source: "dashboard", last_used_at: null });
    const token: string = created.json.token;
    expect(token).toMatch(/^mr_/);
    const bearer = { authorization: `Bearer ${token}` };

    const [id] = await app.catchHooks("ci", 1);
    expect((await app.call("POST", `/v1/hooks/${id}/process`, undefined, bearer)).status).toBe(200);
    expect((await app.call("GET", `/v1/hooks/${id}`, undefined, bearer)).json.events[0].actor).toBe("api:deploy-bot");

    const listed = await app.call("GET", "/ui/api/api-keys", undefined, app.admin);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.json)).not.toContain(token);
    const keys = Object.fromEntries(listed.json.map((k: any) => [k.label, k]));
    expect(keys["deploy-bot"].last_used_at).toBe(new Date(app.clock.now()).toISOString());
    expect(keys.test).toEqual({ label: "test", source: "config", created_at: null, last_used_at: null });
    expect(keys.local.source).toBe("local");

    expect((await app.call("DELETE", "/ui/api/api-keys/deploy-bot", undefined, app.admin)).status).toBe(200);
    const after = await app.call("GET", "/v1/hooks", undefined, bearer);
    expect(after.status).toBe(401);
    expect(after.json.code).toBe(16);
    expect((await app.call("GET", "/v1/stream", undefined, bearer)).status).toBe(401);
  });

  test("an admin creates a relay key for channels: listed with its scopes, 403 on the management API; bad grants are 400", async () => {
    const app = await dashboardApp();
    const created = await app.call("POST", "/ui/api/api-keys", { label: "laptop", scopes: ["relay"], channels: ["stripe"] }, app.admin);
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ label: "laptop", source: "dashboard", scopes: ["relay"], channels: ["stripe"] });
    const relay = { authorization: `Bearer ${created.json.token}` };
    const refused = await app.call("GET", "/v1/channels/stripe", undefined, relay);
    expect([refused.status, refused.json.code]).toEqual([403, 7]);
    expect((await app.call("GET", "/v1/stream", undefined, relay)).status).toBe(403);
    const listed = (await app.call("GET", "/ui/api/api-keys", undefined, app.admin)).json.find((k: any) => k.label === "laptop");
    expect(listed).toMatchObject({ scopes: ["relay"], channels: ["stripe"] });
    for (const body of [
      { label: "a", scopes: ["relay"] },
      { label: "b", channels: ["stripe"] },
      { label: "c", scopes: ["admin"], channels: ["stripe"] },
      { label: "d", scopes: ["relay"], channels: ["Bad Name"] },
    ]) {
      const res = await app.call("POST", "/ui/api/api-keys", body, app.admin);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await app.call("POST", "/ui/api/api-keys", { label: "m", scopes: ["relay"], channels: ["x"] }, app.member)).status).toBe(403);
  });

  test("a key's last use is written to the database, so it survives a restart", async () => {
    const app = await dashboardApp();
    const { token } = (await app.call("POST", "/ui/api/api-keys", { label: "kept" }, app.admin)).json;
    await app.call("GET", "/v1/channels", undefined, { authorization: `Bearer ${token}` });
    const row = app.db.$client.query("SELECT last_used_at FROM api_keys WHERE label = 'kept'").get() as { last_used_at: number };
    expect(row.last_used_at).toBe(app.clock.now());
  });

  test("keys of the config file and the local key cannot be revoked; labels are unique; unknown labels are 404", async () => {
    const app = await dashboardApp();
    expect((await app.call("DELETE", "/ui/api/api-keys/test", undefined, app.admin)).json.code).toBe(9);
    expect((await app.call("DELETE", "/ui/api/api-keys/local", undefined, app.admin)).json.code).toBe(9);
    expect((await app.call("DELETE", "/ui/api/api-keys/nope", undefined, app.admin)).status).toBe(404);
    expect((await app.call("POST", "/ui/api/api-keys", { label: "test" }, app.admin)).status).toBe(409);
    expect((await app.call("POST", "/ui/api/api-keys", { label: "twice" }, app.admin)).status).toBe(200);
    expect((await app.call("POST", "/ui/api/api-keys", { label: "twice" }, app.admin)).status).toBe(409);
    expect((await app.call("GET", "/v1/hooks", undefined, AUTH)).status).toBe(200);
  });

  test("bad input gets the error body", async () => {
    const app = await dashboardApp();
    for (const body of [{}, { label: "Bad Label" }, { label: "x", token: "mine" }, { label: 5 }, "[1]"]) {
      const res = await app.call("POST", "/ui/api/api-keys", body, app.admin);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe(3);
    }
    expect((await app.call("POST", "/ui/api/api-keys", "{", app.admin)).status).toBe(400);
    expect((await app.call("DELETE", "/ui/api/api-keys/BAD%20ONE", undefined, app.admin)).status).toBe(400);
  });

  test("only admins with a session from this origin; a bearer token does not open it", async () => {
    const app = await dashboardApp();
    expect((await app.call("GET", "/ui/api/api-keys", undefined, app.member)).status).toBe(403);
    expect((await app.call("POST", "/ui/api/api-keys", { label: "m" }, app.member)).status).toBe(403);
    expect((await app.call("GET", "/ui/api/api-keys", undefined, AUTH)).status).toBe(401);
    expect((await app.call("GET", "/ui/api/api-keys", undefined, {})).status).toBe(401);
    const cross = await app.call("POST", "/ui/api/api-keys", { label: "x" }, { ...app.admin, origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    const noOrigin = await app.call("POST", "/ui/api/api-keys", { label: "x" }, { cookie: app.admin.cookie! });
    expect(noOrigin.status).toBe(403);
    expect((await app.call("GET", "/ui/api/api-keys", undefined, app.admin)).json.map((k: any) => k.label)).not.toContain("x");
  });
});
