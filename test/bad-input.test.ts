/**
 * Requests found by fuzzing every route that used to get a 500, a wrong route or seconds of work.
 * Every test but the last (a restart with a log to read: in process only) runs on every target.
 */
import { expect, test } from "bun:test";
import { createTestApp } from "./helpers/app";
import { AUTH, startTarget } from "./helpers/target";
import { rawExchange, rawJson, rawStatus } from "./helpers/raw";

test("a Host of three characters or fewer routes by the real path (Elysia's standardHostname is off)", async () => {
  const t = await startTarget();
  const server = { url: await t.url(), stop() {} };
  try {
    for (const host of ["x", "api"]) {
      const listed = await fetch(`${server.url}/v1/channels`, { headers: { ...AUTH, host } });
      expect(listed.status).toBe(200);
      // A path that is not a route is a 404, never a route shifted by the host's length (it was a 500).
      const shifted = await fetch(`${server.url}/xx/v1/account`, { headers: { host } });
      expect(shifted.status).toBe(404);
      expect(await shifted.json()).toMatchObject({ code: 5 });
    }
    const caught = await fetch(`${server.url}/ab/?channel=zz`, { method: "POST", headers: { host: "x" }, body: "{}" });
    expect(caught.status).toBe(404);
    expect((await t.call("GET", "/v1/channels/zz")).status).toBe(404);
  } finally {
    server.stop();
  }
});

const nested = (depth: number, leaf = "1") => '{"a":'.repeat(depth) + leaf + "}".repeat(depth);
const nestedArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

test("nestsDeeperThan counts arrays and objects, not brackets inside strings", async () => {
  const { nestsDeeperThan, MAX_JSON_DEPTH } = await import("../src/lib/json");
  expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
  expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  expect(nestsDeeperThan(nestedArrays(3), 2)).toBe(true);
  expect(nestsDeeperThan(`{"s":"[[[{{{\\"[[[","t":[1]}`, 2)).toBe(false);
  expect(nestsDeeperThan(`["\\\\",[[]]]`, 2)).toBe(true); // an escaped backslash ends the escape
});

test("a management body nested deeper than 64 levels is a quick 400, not seconds of work or a 500", async () => {
  const t = await startTarget();
  const created = (await t.post("c", "{}").then((r) => r.json())) as { id: string };
  for (const body of [`{"message":${nestedArrays(5000)}}`, `{"message":"m","zz":${nested(10_000)}}`]) {
    const res = await t.call("POST", `/v1/hooks/${created.id}/fail`, body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 3, details: [] });
    expect(res.json.message).toContain("deeper than 64 levels");
  }
  // 64 levels is still read, and judged by the schema.
  const ok = await t.call("POST", `/v1/hooks/${created.id}/fail`, `{"message":"m","zz":${nested(63)}}`);
  expect(ok.status).toBe(400);
  expect(ok.json.message).toContain("zz");
  expect((await t.call("GET", `/v1/hooks/${created.id}`)).json.status).toBe("pending");
});

test("a translation body nested deeper than 64 levels is a 400 INVALID_JSON", async () => {
  const { startTranslate } = await import("./translate/setup");
  const app = await startTranslate();
  for (const path of ["/v1/translate", "/api/v1/translate", "/v1/calculate"]) {
    const res = await app.customer("POST", path, `{"source_language":"en","target_languages":["de"],"text":"x","zz":${nested(20_000)}}`);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("INVALID_JSON");
    expect(res.json.description).toContain("deeper than 64 levels");
  }
  const deepField = await app.customer("POST", "/api/v1/translate", `{"source_language":${nestedArrays(5000)},"target_languages":["de"],"text":"x"}`);
  expect(deepField.status).toBe(400);
});

test("a hook nested thousands of levels deep is kept byte for byte; it reads with payload null, and lists still work", async () => {
  const t = await startTarget();
  const body = nested(40_000);
  const send = (b: string) => t.post("deep", b, { "content-type": "application/json" });
  const deep = (await (await send(body)).json()) as { id: string };
  const shallow = (await (await send(nested(64))).json()) as { id: string };

  const got = await t.call("GET", `/v1/hooks/${deep.id}`);
  expect(got.status).toBe(200);
  expect(got.json.payload).toBeNull();
  expect(Buffer.from(got.json.body, "base64").toString()).toBe(body);
  expect((await t.call("GET", `/v1/hooks/${shallow.id}`)).json.payload).toMatchObject({ a: { a: {} } });
  for (const path of ["/v1/hooks", "/v1/hooks?channel=deep", "/v1/hooks?status=pending"]) {
    const listed = await t.call("GET", path);
    expect(listed.status).toBe(200);
    expect(listed.json.map((h: { id: string }) => h.id)).toEqual([shallow.id, deep.id]);
  }
});

test("a declared body of 2 GB gets each route's documented answer at once, before anything is read", async () => {
  const { translateConfig, basic, CUSTOMER } = await import("./translate/setup");
  const t = await startTarget({ translate: translateConfig({}) });
  const server = { url: await t.url(), stop() {} };
  const port = Number(new URL(server.url).port);
  try {
    const cases: [string, string, Record<string, string>, number][] = [
      ["POST", "/?channel=big", {}, 413],
      ["POST", "/v1/channels/big/pause", {}, 401],
      ["POST", "/v1/channels/big/pause", AUTH, 413],
      ["POST", "/v1/translate", {}, 413], // the translation gate's documented order: 413 before 401
      ["POST", "/v1/translate", basic(CUSTOMER), 413],
      ["POST", "/v1/no-such-route", AUTH, 404],
    ];
    for (const [method, path, headers, status] of cases) {
      const head = Object.entries({ host: "localhost", "content-type": "application/json", "content-length": "2000000000", ...headers })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("");
      const answer = await rawExchange(port, `${method} ${path} HTTP/1.1\r\n${head}\r\n{"a":`);
      expect({ path, status: rawStatus(answer) }).toEqual({ path, status });
      expect(() => rawJson(answer)).not.toThrow();
    }
  } finally {
    server.stop();
  }
});

test("a management query parameter given twice is a 400 naming it, after the credentials are checked", async () => {
  const t = await startTarget();
  for (const path of ["/v1/hooks?status=pending&status=failed", "/v1/refusals?limit=5&limit=6", "/v1/hooks?channel=a&limit=2&channel=b"]) {
    const res = await t.call("GET", path);
    expect({ path, status: res.status, code: res.json.code }).toEqual({ path, status: 400, code: 3 });
    expect(res.json.message).toContain("given more than once");
    expect((await t.call("GET", path, undefined, {})).status).toBe(401);
  }
  expect((await t.call("GET", "/v1/hooks?status=pending&limit=2")).status).toBe(200);
});

test("a request without a Host header (HTTP/1.0), or with an invalid one, is served like any other", async () => {
  const { translateConfig } = await import("./translate/setup");
  const t = await startTarget({ translate: translateConfig({ maintenance: true }) });
  const server = { url: await t.url(), stop() {} };
  const port = Number(new URL(server.url).port);
  const [status, body] = [rawStatus, rawJson];
  try {
    const noToken = await rawExchange(port, "GET /v1/channels HTTP/1.0\r\n\r\n");
    expect(status(noToken)).toBe(401);
    expect(body(noToken).code).toBe(16);
    // The dashboard's JSON endpoints too (they are routed before the fetch function).
    for (const path of ["/ui/api/setup", "/ui/api/info", "/ui/api/hooks"]) {
      const answer = await rawExchange(port, `GET ${path} HTTP/1.0\r\n\r\n`);
      expect({ path, status: status(answer) < 500 }).toEqual({ path, status: true });
      expect(() => body(answer)).not.toThrow();
    }
    const listed = await rawExchange(port, `GET /v1/hooks?limit=abc HTTP/1.0\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`);
    expect(status(listed)).toBe(400);
    // The translation gate runs: maintenance answers 503 to these as to any other request.
    for (const head of ["GET /v1/rates HTTP/1.0\r\n", "GET /api/v1/account HTTP/1.1\r\nHost: a#b\r\n"]) {
      const answer = await rawExchange(port, `${head}Accept: application/json\r\nConnection: close\r\n\r\n`);
      expect({ head, status: status(answer) }).toEqual({ head, status: 503 });
    }
    const caught = await rawExchange(port, 'POST /?channel=old-client HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{"a":"b"}');
    expect(status(caught)).toBe(200);
    const hook = (await t.call("GET", `/v1/hooks/${body(caught).id}`)).json;
    expect({ channel: hook.channel, ip: hook.ip, body: Buffer.from(hook.body, "base64").toString() }).toEqual({
      channel: "old-client",
      ip: "127.0.0.1",
      body: '{"a":"b"}',
    });
  } finally {
    server.stop();
  }
});

test("guards that judge no body refuse a sender before its body is read; signature guards still see the body", async () => {
  const t = await startTarget({
    guards: [
      { name: "office", kind: "ip-allow", allow: ["10.0.0.0/8"] },
      { name: "tok", kind: "token", secret: "s3cret-token-value", header: "X-Token" },
    ],
    channels: [
      { name: "private", guards: ["office"] },
      { name: "tokc", guards: ["tok"] },
    ],
  });
  const server = { url: await t.url(), stop() {} };
  const port = Number(new URL(server.url).port);
  const status = rawStatus;
  try {
    // 50,000 bytes declared, 10 sent: the answer comes without the rest.
    for (const channel of ["private", "tokc"]) {
      const answer = await rawExchange(port, `POST /?channel=${channel} HTTP/1.1\r\nHost: x\r\nContent-Length: 50000\r\n\r\n0123456789`);
      expect({ channel, status: status(answer) }).toEqual({ channel, status: channel === "private" ? 403 : 401 });
    }
    const ok = await fetch(`${server.url}/?channel=tokc`, { method: "POST", headers: { "x-token": "s3cret-token-value" }, body: "kept" });
    expect(ok.status).toBe(200);
    const hook = (await t.call("GET", `/v1/hooks/${((await ok.json()) as { id: string }).id}`)).json;
    expect(Buffer.from(hook.body, "base64").toString()).toBe("kept");
  } finally {
    server.stop();
  }
  expect((await t.call("GET", "/v1/refusals")).json.map((r: { guard: string }) => r.guard)).toEqual(["tok", "office"]);
});

test("a channel whose stored guards name one the config no longer has refuses hooks with 503, every time, logged once", async () => {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), "mailroom-guards-"));
  const dbPath = join(dir, "m.db");
  try {
    const before = createTestApp(
      { guards: [{ name: "tok", kind: "token", secret: "s3cret-token-value", header: "X-Token" }], hooks: { default_guards: ["tok"] } },
      { dbPath },
    );
    const first = await before.app.handle(
      new Request("http://localhost/?channel=old", { method: "POST", headers: { "x-token": "s3cret-token-value" }, body: "{}" }),
    );
    expect(first.status).toBe(200);
    before.close();

    const logged: string[] = [];
    const log = { info() {}, warn() {}, error: (message: string) => void logged.push(message) };
    const after = createTestApp({}, { dbPath, log });
    for (let i = 0; i < 3; i++) {
      const res = await after.app.handle(new Request("http://localhost/?channel=old", { method: "POST", body: "{}" }));
      expect(res.status).toBe(503);
      expect(((await res.json()) as { message: string }).message).toContain("misconfigured");
    }
    // The operator hears of it once, not once per request a sender makes.
    expect(logged).toEqual(["channel names a guard that is not configured"]);
    // Other channels are not affected.
    expect((await after.app.handle(new Request("http://localhost/?channel=new", { method: "POST", body: "{}" }))).status).toBe(200);
    after.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
