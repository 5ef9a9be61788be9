import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sign } from "@octokit/webhooks-methods";
import { createHmac } from "node:crypto";
import { startTarget, type Target } from "../helpers/target";

// Runs on every target (MAILROOM_TEST_TARGET).

const SECRET = "gh-webhook-secret-123";
const BODY = '{"zen":"Keep it logically awesome.","hook_id":1}';

const config = {
  guards: [
    { name: "gh", kind: "github", secret_env: "GH_SECRET" },
    { name: "only-post", kind: "method" },
    { name: "small", kind: "max-body", max: "16B" },
    { name: "json", kind: "content-type" },
    { name: "office", kind: "ip-allow", allow: ["10.0.0.0/8", "::1"] },
  ],
  channels: [
    { name: "github", guards: ["gh"] },
    { name: "strict", guards: ["only-post", "json", "small"] },
    { name: "private", guards: ["office"] },
  ],
};

describe("guards on the catching endpoint", () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget(config, { env: { GH_SECRET: SECRET } });
  });
  afterAll(() => t.stop());
  const send = (path: string, body: string | undefined, headers: Record<string, string>, method = "POST") => t.call(method, path, body, headers);
  const hookCount = async (channel: string) => (await t.call("GET", `/v1/hooks?channel=${channel}`)).json.length;

  test("a refusal's diagnosis is worked out again from the request kept with it", async () => {
    // Octokit signed the compact body; a proxy pretty-printed it on the way.
    const pretty = JSON.stringify(JSON.parse(BODY), null, 2);
    const res = await send("/?channel=github", pretty, { "x-hub-signature-256": await sign(SECRET, BODY), "x-github-event": "ping" });
    expect(res.status).toBe(401);
    const [refused] = (await t.call("GET", "/v1/refusals?channel=github&limit=1")).json;
    expect(refused.diagnosis.cause).toBe("body_changed");
    const again = await t.call("POST", `/v1/refusals/${refused.id}/diagnose`);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(refused);
    expect(JSON.stringify(again.json)).not.toContain(SECRET);
    expect((await t.call("POST", "/v1/refusals/01jd3q9x0c2m8t6v4r2k8p1w5z/diagnose")).json.code).toBe(5);
  });

  test("a GitHub delivery signed by Octokit is caught with its exact body", async () => {
    const res = await send("/?channel=github", BODY, { "x-hub-signature-256": await sign(SECRET, BODY), "x-github-event": "ping" });
    expect(res.status).toBe(200);
    const hook = (await t.call("GET", `/v1/hooks/${res.json.id}`)).json;
    expect(Buffer.from(hook.body, "base64").toString()).toBe(BODY);
  });

  test("a tampered delivery is refused with 401, the guard's name and reason, and is not caught", async () => {
    const before = await hookCount("github");
    const tampered = BODY.replace("1", "2");
    const res = await send("/?channel=github", tampered, { "x-hub-signature-256": await sign(SECRET, BODY) });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ code: 16, message: 'guard "gh": X-Hub-Signature-256 does not match the body', details: [] });
    expect(res.text).not.toContain(SECRET);
    expect(res.text).not.toContain((await sign(SECRET, tampered)).slice(7));
    expect(await hookCount("github")).toBe(before);
  });

  test("a delivery without a signature is refused with 401", async () => {
    const res = await send("/?channel=github", BODY, { "content-type": "application/json" });
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('guard "gh": missing X-Hub-Signature-256 header');
  });

  test("method, content type and size guards answer 405, 415 and 413 with their gRPC codes", async () => {
    const wrongMethod = await send("/?channel=strict", "{}", { "content-type": "application/json" }, "PUT");
    expect([wrongMethod.status, wrongMethod.json.code, wrongMethod.json.message]).toEqual([
      405,
      12,
      'guard "only-post": method PUT is not allowed (allowed: POST)',
    ]);
    const wrongType = await send("/?channel=strict", "a=1", { "content-type": "application/x-www-form-urlencoded" });
    expect([wrongType.status, wrongType.json.code]).toEqual([415, 3]);
    expect(wrongType.json.message).toStartWith('guard "json": ');
    const tooLarge = await send("/?channel=strict", '{"much":"too long"}', { "content-type": "application/json" });
    expect([tooLarge.status, tooLarge.json.code, tooLarge.json.message]).toEqual([413, 8, 'guard "small": body larger than 16 bytes']);
    const fine = await send("/?channel=strict", '{"ok":1}', { "content-type": "application/json" });
    expect(fine.status).toBe(200);
  });

  test("GET /v1/refusals lists refusals newest first with channel, guard, status, reason, time, ip and method", async () => {
    const own = await startTarget(config, { env: { GH_SECRET: SECRET } });
    const json = { "content-type": "application/json" };
    const before = new Date().toISOString();
    await own.call("PUT", "/?channel=strict", "{}", json);
    await own.call("POST", "/?channel=strict", "a=1", { "content-type": "text/plain" });
    await own.call("POST", "/?channel=strict", '{"much":"too long"}', json);
    await own.call("POST", "/?channel=github", BODY, { "x-hub-signature-256": "sha256=00" });

    const res = await own.call("GET", "/v1/refusals?channel=github&limit=1");
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      {
        kind: "refused",
        channel: "github",
        guard: "gh",
        status: 401,
        reason: "X-Hub-Signature-256 does not match the body",
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        ip: "127.0.0.1",
        method: "POST",
        id: expect.stringMatching(/^[0-7][0-9a-hjkmnp-tv-z]{25}$/),
        query: "channel=github",
        headers: expect.objectContaining({ "x-hub-signature-256": "[redacted]" }),
        // Not signed with any secret Mailroom knows, the body as sent, the clock right: no known cause.
        diagnosis: expect.objectContaining({ cause: "unknown" }),
      },
    ]);
    // A refusal that is not about a signature has no diagnosis.
    expect((await own.call("GET", "/v1/refusals?guard=small")).json.map((r: any) => r.diagnosis)).toEqual([null]);
    expect(res.json[0].created_at >= before).toBe(true);
    const all = (await own.call("GET", "/v1/refusals")).json;
    expect(all.map((r: any) => `${r.channel} ${r.guard} ${r.status} ${r.method}`)).toEqual([
      "github gh 401 POST",
      "strict small 413 POST",
      "strict json 415 POST",
      "strict only-post 405 PUT",
    ]);
    expect((await own.call("GET", "/v1/refusals?channel=strict&limit=2")).json.map((r: any) => r.guard)).toEqual(["small", "json"]);
    expect((await own.call("GET", "/v1/refusals?guard=json")).json.map((r: any) => r.channel)).toEqual(["strict"]);
    expect((await own.call("GET", "/v1/refusals?channel=private")).json).toEqual([]);
    await own.stop();
  });

  test("the refusal list refuses bad parameters and callers without a key", async () => {
    for (const q of ["limit=0", "limit=1001", "limit=x", "channel=Bad!", "guard=%20", "other=1"]) {
      const res = await t.call("GET", `/v1/refusals?${q}`);
      expect({ q, status: res.status, code: res.json?.code }).toEqual({ q, status: 400, code: 3 });
      // The message names the bad parameter.
      expect(res.json.message).toContain(`${q.split("=")[0]}:`);
    }
    expect((await t.call("GET", "/v1/refusals", undefined, {})).status).toBe(401);
  });

  test("with trust_proxy, ip-allow judges the forwarded sender ip", async () => {
    const behindProxy = await startTarget({ ...config, server: { trust_proxy: true } }, { env: { GH_SECRET: SECRET } });
    const ok = await behindProxy.call("POST", "/?channel=private", "x", { "x-forwarded-for": "203.0.113.50, 10.1.2.3" });
    expect(ok.status).toBe(200);
    // A sender outside the range that writes an allowed address in front of its own is still refused.
    const refused = await behindProxy.call("POST", "/?channel=private", "x", { "x-forwarded-for": "10.1.2.3, 203.0.113.9" });
    expect([refused.status, refused.json.code, refused.json.message]).toEqual([403, 7, 'guard "office": sender ip 203.0.113.9 is not allowed']);
    const [listed] = (await behindProxy.call("GET", "/v1/refusals")).json;
    expect([listed.ip, listed.guard, listed.status]).toEqual(["203.0.113.9", "office", 403]);
    await behindProxy.stop();
  });
});

describe("guards over a real socket", () => {
  let t: Target;
  let url = "";
  beforeAll(async () => {
    t = await startTarget(config, { env: { GH_SECRET: SECRET } });
    url = await t.url();
  });
  afterAll(() => t.stop());

  test("without trust_proxy, ip-allow judges the socket's address and ignores X-Forwarded-For", async () => {
    const res = await fetch(`${url}/?channel=private`, { method: "POST", body: "x", headers: { "x-forwarded-for": "10.0.0.1" } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).message).toMatch(/^guard "office": sender ip (127\.0\.0\.1|::ffff:127\.0\.0\.1) is not allowed$/);
    const [listed] = (await t.call("GET", "/v1/refusals?channel=private")).json;
    expect(listed.ip).toMatch(/127\.0\.0\.1$/);
  });

  test("a streamed body over a max-body guard's limit is refused with 413 and recorded", async () => {
    const chunks = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"a":"0123456789'));
        c.enqueue(new TextEncoder().encode('0123456789"}'));
        c.close();
      },
    });
    const res = await fetch(`${url}/?channel=strict`, { method: "POST", body: chunks, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    const [listed] = (await t.call("GET", "/v1/refusals?channel=strict")).json;
    expect([listed.guard, listed.status]).toEqual(["small", 413]);
  });
});

describe("default guards", () => {
  test("a channel created by its first hook gets [hooks] default_guards", async () => {
    const t = await startTarget({
      guards: [{ name: "shop", kind: "shopify", secret: "shpss_x" }],
      hooks: { default_guards: ["shop"] },
    });
    const refused = await t.call("POST", "/?channel=fresh", BODY, { "content-type": "application/json" });
    expect([refused.status, refused.json.message]).toEqual([401, 'guard "shop": missing X-Shopify-Hmac-Sha256 header']);
    const hmac = createHmac("sha256", "shpss_x").update(BODY).digest("base64");
    const caught = await t.call("POST", "/?channel=fresh", BODY, { "content-type": "application/json", "x-shopify-hmac-sha256": hmac });
    expect(caught.status).toBe(200);
    expect((await t.call("GET", "/v1/channels/fresh")).json.guards).toEqual(["shop"]);
    await t.stop();
  });
});
