import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp } from "../helpers/app";
import { AUTH, dashboardApp, ADMIN, ORIGIN } from "./support";

const SECRET = "s3cret-never-shown";
const sign = (body: string, secret = SECRET) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
const GITHUB = { name: "gh", kind: "github", secret: SECRET };

describe("guards in the dashboard", () => {
  test("a guard defined and assigned to a channel refuses the next badly signed hook, without a restart; its secret is never sent back", async () => {
    const app = await dashboardApp();
    expect((await app.post("gh-hooks", "{}")).status).toBe(200); // the channel exists, unguarded
    const created = await app.call("POST", "/ui/api/guards", GITHUB, app.admin);
    expect(created.status).toBe(200);
    expect(created.json).toEqual({ name: "gh", kind: "github", settings: {}, has_secret: true, read_only: false });
    const channel = await app.call("PUT", "/ui/api/channels/gh-hooks/guards", { guards: ["gh"] }, app.admin);
    expect(channel.json.guards).toEqual(["gh"]);

    const bad = await app.post("gh-hooks", '{"a":1}', { "x-hub-signature-256": sign('{"a":1}', "wrong") });
    expect(bad.status).toBe(401);
    const good = await app.post("gh-hooks", '{"a":1}', { "x-hub-signature-256": sign('{"a":1}') });
    expect(good.status).toBe(200);
    const refusals = (await app.call("GET", "/v1/refusals?channel=gh-hooks")).json;
    expect(refusals[0].guard).toBe("gh");

    const listed = await app.call("GET", "/ui/api/guards", undefined, app.admin);
    expect(listed.text).not.toContain(SECRET);
    expect(listed.json.kinds.map((k: any) => k.kind)).toContain("standard-webhooks");

    // A new secret applies to the next request; the old one stops working.
    expect((await app.call("PUT", "/ui/api/guards/gh", { secret: "another" }, app.admin)).json.has_secret).toBe(true);
    expect((await app.post("gh-hooks", "{}", { "x-hub-signature-256": sign("{}") })).status).toBe(401);
    expect((await app.post("gh-hooks", "{}", { "x-hub-signature-256": sign("{}", "another") })).status).toBe(200);

    // Taken off the channel: hooks pass again. Removed once no channel uses it.
    expect((await app.call("DELETE", "/ui/api/guards/gh", undefined, app.admin)).status).toBe(409);
    await app.call("PUT", "/ui/api/channels/gh-hooks/guards", { guards: [] }, app.admin);
    expect((await app.post("gh-hooks", "{}")).status).toBe(200);
    expect((await app.call("DELETE", "/ui/api/guards/gh", undefined, app.admin)).status).toBe(200);
    expect((await app.call("GET", "/ui/api/guards", undefined, app.admin)).json.guards).toEqual([]);
  });

  test("every kind can be defined with its settings", async () => {
    const app = await dashboardApp();
    const defs = [
      { name: "a", kind: "github", secret: "x" },
      { name: "b", kind: "stripe", secret: "whsec_x", settings: { tolerance: "60s" } },
      { name: "c", kind: "standard-webhooks", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" },
      { name: "d", kind: "shopify", secret: "x" },
      { name: "e", kind: "slack", secret: "x" },
      { name: "f", kind: "hmac", secret: "x", settings: { header: "x-sig", prefix: "sha256=" } },
      { name: "g", kind: "basic-auth", secret: "pw", settings: { username: "u" } },
      { name: "h", kind: "token", secret: "t0k" },
      { name: "i", kind: "ip-allow", settings: { allow: ["10.0.0.0/8"] } },
      { name: "j", kind: "method", settings: { allow: ["POST", "PUT"] } },
      { name: "k", kind: "content-type" },
      { name: "l", kind: "max-body", settings: { max: "1KB" } },
    ];
    for (const d of defs) {
      const res = await app.call("POST", "/ui/api/guards", d, app.admin);
      expect([d.kind, res.status]).toEqual([d.kind, 200]);
    }
    const kinds = (await app.call("GET", "/ui/api/guards", undefined, app.admin)).json.guards.map((g: any) => g.kind);
    expect(new Set(kinds).size).toBe(12);
  });

  test("the form knows every preset's fields, takes a provider's secret or public key, and says every problem at once", async () => {
    const app = await dashboardApp();
    const listed = (await app.call("GET", "/ui/api/guards", undefined, app.admin)).json.kinds as {
      kind: string;
      secret: string | null;
      fields: { key: string }[];
    }[];
    const byKind = new Map(listed.map((k) => [k.kind, k]));
    expect(byKind.get("twilio")).toMatchObject({ secret: "secret", fields: [] });
    expect(byKind.get("stripe")!.fields.map((f) => f.key)).toEqual(["tolerance"]);
    expect(byKind.get("discord")!.secret).toBe("public_key");
    expect(byKind.get("meta")!.fields.map((f) => f.key)).toEqual(["verify_token"]);
    expect(byKind.get("scheme")!.fields.map((f) => f.key)).toContain("signed");
    const twilio = await app.call("POST", "/ui/api/guards", { name: "tw", kind: "twilio", secret: "auth-token" }, app.admin);
    expect(twilio.json).toEqual({ name: "tw", kind: "twilio", settings: {}, has_secret: true, read_only: false });
    const bad = await app.call("POST", "/ui/api/guards", { name: "ips", kind: "ip-allow", settings: { allow: ["1.2.3.4", "nope", "10.0.0.0/99"] } }, app.admin);
    expect(bad.json.message).toBe('allow[1]: "nope" is not an IP address or CIDR block; allow[2]: "10.0.0.0/99" is not an IP address or CIDR block');
  });

  test("the form knows aws-sns's and paypal's keys, and an aws-sns guard missing its certificate and topic says both at once", async () => {
    const app = await dashboardApp();
    const listed = (await app.call("GET", "/ui/api/guards", undefined, app.admin)).json.kinds as {
      kind: string;
      secret: string | null;
      fields: { key: string }[];
    }[];
    const byKind = new Map(listed.map((k) => [k.kind, k]));
    expect(byKind.get("aws-sns")).toMatchObject({ secret: null });
    expect(byKind.get("aws-sns")!.fields.map((f) => f.key)).toEqual(["certificate", "fetch_certificate", "tolerance", "topic_arn", "confirm_subscription"]);
    expect(byKind.get("paypal")!.fields.map((f) => f.key)).toEqual(["certificate", "fetch_certificate", "tolerance", "webhook_id"]);
    const bad = await app.call("POST", "/ui/api/guards", { name: "sns", kind: "aws-sns", settings: {} }, app.admin);
    expect(bad.json.message).toBe(
      "certificate: give certificate or certificate_env (PEM), or fetch_certificate = true to fetch it from the provider; topic_arn: give the ARN of the topic whose messages are accepted (any AWS account can make SNS sign a message)",
    );
    const good = await app.call(
      "POST",
      "/ui/api/guards",
      { name: "sns", kind: "aws-sns", settings: { topic_arn: "arn:aws:sns:us-west-2:1:t", fetch_certificate: true } },
      app.admin,
    );
    expect(good.status).toBe(200);
  });

  test("default guards apply to channels created afterwards, and survive a restart with the guards", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mailroom-guards-"));
    const path = join(dir, "m.db");
    const first = createTestApp({ storage: { durability: "normal" } }, { dbPath: path });
    await first.dashboard.users.add(ADMIN.email, "admin", ADMIN.password);
    const cookie = /^(mailroom_session=[^;]+)/.exec((await first.call("POST", "/ui/api/session", ADMIN, ORIGIN)).headers.get("set-cookie")!)![1]!;
    const admin = { cookie, ...ORIGIN };
    expect((await first.call("POST", "/ui/api/guards", { name: "m", kind: "method", settings: { allow: ["PUT"] } }, admin)).status).toBe(200);
    const defaults = await first.call("PUT", "/ui/api/default-guards", { guards: ["m"] }, admin);
    expect(defaults.json).toEqual({ guards: ["m"], read_only: false });
    expect((await first.post("new-one", "{}")).status).toBe(405);
    first.close();

    const again = createTestApp({ storage: { durability: "normal" } }, { dbPath: path });
    expect((await again.post("newer", "{}")).status).toBe(405);
    expect((await again.app.handle(new Request("http://localhost/?channel=newer", { method: "PUT", body: "{}" }))).status).toBe(200);
    again.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("config-file guards, channels and default guards are read-only and win on a name clash", async () => {
    const app = await dashboardApp({
      guards: [{ name: "cfg", kind: "token", secret: "from-file" }],
      channels: [{ name: "declared", guards: ["cfg"] }],
      hooks: { default_guards: ["cfg"] },
    });
    const listed = (await app.call("GET", "/ui/api/guards", undefined, app.admin)).json;
    expect(listed.guards).toEqual([{ name: "cfg", kind: "token", settings: { header: "authorization" }, has_secret: true, read_only: true }]);
    expect(JSON.stringify(listed)).not.toContain("from-file");
    expect(listed.default_guards).toEqual({ guards: ["cfg"], read_only: true });
    expect((await app.call("POST", "/ui/api/guards", { name: "cfg", kind: "github", secret: "x" }, app.admin)).status).toBe(409);
    expect((await app.call("PUT", "/ui/api/guards/cfg", { secret: "x" }, app.admin)).status).toBe(409);
    expect((await app.call("DELETE", "/ui/api/guards/cfg", undefined, app.admin)).status).toBe(409);
    expect((await app.call("PUT", "/ui/api/channels/declared/guards", { guards: [] }, app.admin)).status).toBe(409);
    expect((await app.call("PUT", "/ui/api/default-guards", { guards: [] }, app.admin)).status).toBe(409);
  });

  test("bad input gets the error body and changes nothing", async () => {
    const app = await dashboardApp();
    const bad: [string, string, unknown][] = [
      ["POST", "/ui/api/guards", { name: "x", kind: "nope" }],
      ["POST", "/ui/api/guards", { name: "Bad Name", kind: "github", secret: "x" }],
      ["POST", "/ui/api/guards", { name: "x", kind: "github" }],
      ["POST", "/ui/api/guards", { name: "x", kind: "method", secret: "x" }],
      ["POST", "/ui/api/guards", { name: "x", kind: "github", secret: "x", settings: { secret: "y" } }],
      ["POST", "/ui/api/guards", { name: "x", kind: "github", secret: "x", settings: { secret_env: "HOME" } }],
      ["POST", "/ui/api/guards", { name: "x", kind: "hmac", secret: "x", settings: {} }],
      ["POST", "/ui/api/guards", { name: "x", kind: "ip-allow", settings: { allow: ["not an ip"] } }],
      ["POST", "/ui/api/guards", { name: "x", kind: "method", settings: { allow: "POST" } }],
      ["POST", "/ui/api/guards", { name: "x", kind: "github", secret: "x", extra: 1 }],
      ["POST", "/ui/api/guards", "[]"],
      ["PUT", "/ui/api/channels/default/guards", { guards: ["missing"] }],
      ["PUT", "/ui/api/channels/default/guards", { guards: "x" }],
      ["PUT", "/ui/api/default-guards", { guards: ["missing"] }],
    ];
    await app.post("default", "{}");
    for (const [method, path, body] of bad) {
      const res = await app.call(method, path, body, app.admin);
      expect([path, JSON.stringify(body), res.status, res.json?.code]).toEqual([path, JSON.stringify(body), 400, 3]);
    }
    expect((await app.call("GET", "/ui/api/guards", undefined, app.admin)).json.guards).toEqual([]);
    expect((await app.call("PUT", "/ui/api/guards/none", { settings: {} }, app.admin)).status).toBe(404);
    expect((await app.call("PUT", "/ui/api/channels/none/guards", { guards: [] }, app.admin)).status).toBe(404);
  });

  test("a guard kind mistyped in the dashboard is answered with the close one, not every kind", async () => {
    const app = await dashboardApp();
    const res = await app.call("POST", "/ui/api/guards", { name: "x", kind: "githubb", secret: "x" }, app.admin);
    expect([res.status, res.json.code]).toEqual([400, 3]);
    expect(res.json.message).toContain('unknown kind "githubb" (did you mean github?)');
    expect(res.json.message).not.toContain("stripe");
  });

  test("only admins, with a session from this origin", async () => {
    const app = await dashboardApp();
    expect((await app.call("GET", "/ui/api/guards", undefined, app.member)).status).toBe(403);
    expect((await app.call("POST", "/ui/api/guards", GITHUB, app.member)).status).toBe(403);
    expect((await app.call("PUT", "/ui/api/default-guards", { guards: [] }, app.member)).status).toBe(403);
    expect((await app.call("GET", "/ui/api/guards", undefined, AUTH)).status).toBe(401);
    expect((await app.call("POST", "/ui/api/guards", GITHUB, { ...app.admin, origin: "https://evil.example" })).status).toBe(403);
    expect((await app.call("GET", "/ui/api/guards", undefined, app.admin)).json.guards).toEqual([]);
  });
});
