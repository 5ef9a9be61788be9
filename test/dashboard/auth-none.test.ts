/**
 * `[dashboard] auth = "none"` (issue 32): on loopback with no [[users]], the dashboard opens without
 * signing in, as an admin named "local"; check-config refuses it anywhere else; the default still
 * requires a session.
 */
import { describe, expect, test } from "bun:test";
import { buildConfig, ConfigError } from "../../src/load-config";
import { createTestApp } from "../helpers/app";
import { ORIGIN } from "./support";

const problems = (raw: unknown): string[] => {
  try {
    buildConfig(raw, {});
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
};

describe('[dashboard] auth = "none"', () => {
  test("every dashboard route answers without a session, as the local admin; the session says auth none", async () => {
    const app = createTestApp({ dashboard: { auth: "none" } });
    await app.catchHooks("shop", 2);
    const none = {};
    const session = await app.call("GET", "/ui/api/session", undefined, none);
    expect(session.status).toBe(200);
    expect(session.json).toEqual({ email: "local", role: "admin", auth: "none" });
    for (const path of ["/ui/api/hooks", "/ui/api/channels", "/ui/api/users", "/ui/api/api-keys", "/ui/api/guards", "/ui/api/info"]) {
      const r = await app.call("GET", path, undefined, none);
      expect({ path, status: r.status }).toEqual({ path, status: 200 });
    }
    expect((await app.call("GET", "/ui/api/hooks", undefined, none)).json).toHaveLength(2);
    // A change still needs this server's own Origin: another site cannot act through the browser.
    const user = { email: "bea@example.com", role: "member", password: "a long enough one" };
    const crossSite = await app.call("POST", "/ui/api/users", user, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    const made = await app.call("POST", "/ui/api/users", user, ORIGIN);
    expect(made.status).toBe(200);
    // A name rebound to 127.0.0.1 by another site (DNS rebinding) is not a loopback name: refused.
    for (const url of ["http://evil.example/ui/api/hooks", "http://evil.example/ui/api/session"]) {
      const r = await app.app.handle(new Request(url));
      expect({ url, status: r.status }).toEqual({ url, status: 403 });
    }
    expect((await app.app.handle(new Request("http://127.0.0.1:8080/ui/api/hooks"))).status).toBe(200);
    expect((await app.app.handle(new Request("http://[::1]:8080/ui/api/hooks"))).status).toBe(200);
    // The management API is not opened: it still wants its bearer token.
    expect((await app.call("GET", "/v1/hooks", undefined, none)).status).toBe(401);
  });

  test("without auth, or with password, the dashboard still wants a session", async () => {
    for (const dashboard of [{}, { auth: "password" }]) {
      const app = createTestApp({ dashboard });
      expect((await app.call("GET", "/ui/api/hooks", undefined, {})).status).toBe(401);
      expect((await app.call("GET", "/ui/api/session", undefined, {})).status).toBe(204);
    }
  });

  test("check-config refuses it unless every listener is on loopback and no [[users]] are configured", () => {
    expect(problems({ dashboard: { auth: "none" } })).toEqual([]);
    expect(problems({ server: { host: "localhost" }, metrics: { listen: "[::1]:9464" }, dashboard: { auth: "none" } })).toEqual([]);
    expect(problems({ server: { host: "0.0.0.0" }, dashboard: { auth: "none" } })).toEqual([
      'dashboard.auth: "none" needs every listener on a loopback address (127.0.0.1, ::1, localhost); 0.0.0.0 is not: use "password"',
    ]);
    expect(problems({ server: { public: { host: "192.168.1.5", port: 9000 } }, dashboard: { auth: "none" } })[0]).toContain("192.168.1.5 is not");
    expect(problems({ metrics: { listen: "0.0.0.0:9464" }, dashboard: { auth: "none" } })[0]).toContain("0.0.0.0 is not");
    expect(problems({ users: [{ email: "a@example.com", role: "admin", password_hash: "$argon2id$x" }], dashboard: { auth: "none" } })).toEqual([
      'dashboard.auth: "none" cannot be used with [[users]]: they sign in; remove auth or use "password"',
    ]);
    expect(problems({ dashboard: { auth: "open" } })[0]).toStartWith("dashboard.auth: ");
  });
});
