import { describe, expect, test } from "bun:test";
import { ADMIN, CUSTOMER, TRANSLATOR, basic, createTranslateApp, startTranslate } from "./setup";

const ok = { source_language: "en", target_languages: ["de"], text: "Hello" };

describe("400 error object", () => {
  test("INVALID_JSON for a body that is not JSON", async () => {
    const app = await startTranslate();
    const res = await app.customer("POST", "/api/v1/translate", '{"source_language": ');
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code: "INVALID_JSON", description: expect.any(String), parameters: {} });
  });

  test("INVALID_REQUEST names the field: missing, wrong type, unknown, out of the enum", async () => {
    const app = await startTranslate();
    const cases: [unknown, string][] = [
      [{ target_languages: ["de"], text: "Hi" }, "source_language"],
      [{ ...ok, target_languages: "de" }, "target_languages"],
      [{ ...ok, target_languages: [] }, "target_languages"],
      [{ ...ok, target_languages: ["de", "de"] }, "target_languages"],
      [{ ...ok, colour: "blue" }, "colour"],
      [{ ...ok, context: { tone: "LOUD" } }, "context.tone"],
      [{ ...ok, context: { limit: 1.5 } }, "context.limit"],
      [{ ...ok, comment: { attachments: [{ type: "image/png" }] } }, "comment.attachments.0.data"],
      // U+0000 in any text: refused alike on every backend (a PostgreSQL text cannot hold it).
      [{ ...ok, text: "Hello\u0000world" }, "text"],
      [{ ...ok, comment: { text: "a\u0000" } }, "comment.text"],
    ];
    for (const [body, field] of cases) {
      const res = await app.customer("POST", "/api/v1/translate", body === null ? "" : body);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("INVALID_REQUEST");
      expect(res.json.parameters.field).toBe(field);
    }
    const empty = await app.customer("POST", "/api/v1/translate", "");
    expect(empty.status).toBe(400);
    expect(empty.json.code).toBe("INVALID_REQUEST");
  });

  test("LANGUAGE_NOT_FOUND for an unknown code or a pair without a rate", async () => {
    const app = await startTranslate();
    const source = await app.customer("POST", "/api/v1/translate", { ...ok, source_language: "EN" });
    expect(source.json).toMatchObject({ code: "LANGUAGE_NOT_FOUND", parameters: { language: "EN" } });
    const target = await app.customer("POST", "/api/v1/translate", { ...ok, target_languages: ["de", "klingon"] });
    expect(target.json).toMatchObject({ code: "LANGUAGE_NOT_FOUND", parameters: { language: "klingon" } });
    const same = await app.customer("POST", "/api/v1/translate", { ...ok, target_languages: ["en"] });
    expect(same.json).toMatchObject({ code: "LANGUAGE_NOT_FOUND", parameters: { source_language: "en", target_language: "en" } });
    expect((await app.customer("GET", "/api/v1/orders")).json).toEqual([]);
  });

  test("UNSUPPORTED_RESOURCE_TYPE, INVALID_RESOURCE, NO_TRANSLATABLE_TEXT, INVALID_ATTACHMENT", async () => {
    const app = await startTranslate();
    const post = (body: unknown) => app.customer("POST", "/v1/translate", { source_language: "en", target_languages: ["de"], ...(body as object) });
    expect((await post({ resource: { type: "text/csv", data: "a,b" } })).json.code).toBe("UNSUPPORTED_RESOURCE_TYPE");
    const json = await post({ resource: { type: "application/json", data: "{oops" } });
    expect(json.json).toMatchObject({ code: "INVALID_RESOURCE", parameters: { type: "application/json" } });
    expect((await post({ resource: { type: "text/x-objcstrings", data: '"a" "b"' } })).json.code).toBe("INVALID_RESOURCE");
    expect((await post({ resource: { type: "text/html", data: "<p> </p><img src=x>" } })).json.code).toBe("NO_TRANSLATABLE_TEXT");
    expect((await post({ text: "   " })).json.code).toBe("NO_TRANSLATABLE_TEXT");
    const image = await post({ text: "Hi", comment: { attachments: [{ type: "image/png", data: btoa("GIF89a123456") }] } });
    expect(image.json).toMatchObject({ code: "INVALID_ATTACHMENT", parameters: { index: "0" } });
    expect((await post({ text: "Hi", comment: { attachments: [{ type: "image/bmp", data: "AAAA" }] } })).json.code).toBe("INVALID_ATTACHMENT");
    expect((await app.customer("GET", "/v1/orders")).json).toEqual([]);
  });
});

describe("authentication and roles", () => {
  test("401 without a key, with an unknown key or a malformed header", async () => {
    const app = await startTranslate();
    for (const headers of [{}, basic("unknown-key-1"), { authorization: "Token abc" }, { authorization: "Bearer " }]) {
      const res = await app.call("GET", "/api/v1/account", undefined, headers);
      expect(res.status).toBe(401);
      expect(res.json.code).toBe("UNAUTHORIZED");
      expect(res.headers.get("www-authenticate")).toContain("Basic");
    }
    expect((await app.call("POST", "/translator/v1/orders/1/accept", undefined, {})).status).toBe(401);
    expect((await app.call("GET", "/admin/v1/accounts", undefined, {})).status).toBe(401);
  });

  test("403 for a key of another role", async () => {
    const app = await startTranslate();
    const cases: [string, string, string][] = [
      [CUSTOMER, "GET", "/admin/v1/accounts"],
      [CUSTOMER, "GET", "/translator/v1/orders"],
      [TRANSLATOR, "GET", "/admin/v1/accounts"],
      [TRANSLATOR, "GET", "/v1/account"],
      [TRANSLATOR, "POST", "/api/v1/translate"],
      [ADMIN, "GET", "/api/v1/orders"],
      [ADMIN, "GET", "/translator/v1/orders"],
    ];
    for (const [key, method, path] of cases) {
      const res = await app.call(method, path, method === "POST" ? ok : undefined, basic(key));
      expect(res.status).toBe(403);
      expect(res.json.code).toBe("FORBIDDEN");
    }
    expect((await app.call("GET", "/admin/v1/accounts", undefined, basic(CUSTOMER))).json.description).toContain("administrators");
  });
});

describe("routes", () => {
  test("404 in the translation format for unknown paths under our roots", async () => {
    const app = await startTranslate();
    for (const [key, path] of [
      [CUSTOMER, "/api/v1/nothing"],
      [CUSTOMER, "/api/v1/orders/1/extra"],
      [CUSTOMER, "/v1/orders/1/extra"],
      [CUSTOMER, "/v1/account/x"],
      [TRANSLATOR, "/translator/v1/nothing"],
      [ADMIN, "/admin/v1/nothing"],
    ]) {
      const res = await app.call("GET", path!, undefined, basic(key!));
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ code: "NOT_FOUND", description: expect.any(String), parameters: {} });
    }
  });

  test("the webhook API keeps its own paths under /v1", async () => {
    const app = await startTranslate();
    const res = await app.call("GET", "/v1/channels");
    expect(res.status).toBe(200);
    expect(res.json.code).toBeUndefined();
  });

  test("405 with Allow for a wrong method on a known path", async () => {
    const app = await startTranslate();
    const cases: [string, string, string, string][] = [
      [CUSTOMER, "POST", "/v1/account", "GET"],
      [CUSTOMER, "PUT", "/api/v1/orders/1", "GET, DELETE"],
      [CUSTOMER, "GET", "/api/v1/translate", "POST"],
      [CUSTOMER, "GET", "/v1/calculate", "POST"],
      [CUSTOMER, "DELETE", "/v1/rates", "GET"],
      [TRANSLATOR, "GET", "/translator/v1/orders/1/accept", "POST"],
      [ADMIN, "GET", "/admin/v1/accounts/1/top-up", "POST"],
    ];
    for (const [key, method, path, allow] of cases) {
      const res = await app.call(method, path, method === "GET" ? undefined : "not json", basic(key));
      expect(res.status).toBe(405);
      expect(res.json.code).toBe("METHOD_NOT_ALLOWED");
      expect(res.headers.get("allow")).toBe(allow);
    }
  });
});

describe("406, 413, 429, 503", () => {
  test("406 when the client accepts no JSON", async () => {
    const app = await startTranslate();
    const res = await app.call("GET", "/api/v1/account", undefined, { ...basic(CUSTOMER), accept: "text/html" });
    expect(res.status).toBe(406);
    expect(res.json.code).toBe("NOT_ACCEPTABLE");
    expect((await app.call("GET", "/api/v1/account", undefined, { ...basic(CUSTOMER), accept: "text/html, */*;q=0.1" })).status).toBe(200);
  });

  test("413 from a declared Content-Length over 30 MB, before reading", async () => {
    const app = createTranslateApp(); // in process: a stream and a declared length fetch() would not send
    let pulled = 0;
    const body = new ReadableStream({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(1024));
      },
    });
    const headers = { ...basic(CUSTOMER), "content-type": "application/json", "content-length": String(30 * 1024 * 1024 + 1) };
    const res = await app.app.handle(new Request("http://localhost/api/v1/translate", { method: "POST", headers, body, duplex: "half" } as RequestInit));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe("REQUEST_TOO_LARGE");
    expect(pulled).toBeLessThan(5);
  });

  test("413 for a chunked body, counted while it streams (it never ends)", async () => {
    const app = createTranslateApp(); // in process: a stream and a declared length fetch() would not send
    let sent = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(32);
    const body = new ReadableStream({
      pull(c) {
        sent += chunk.length;
        c.enqueue(chunk);
      },
    });
    const headers = { ...basic(CUSTOMER), "content-type": "application/json" };
    const res = await app.app.handle(new Request("http://localhost/api/v1/translate", { method: "POST", headers, body, duplex: "half" } as RequestInit));
    expect(res.status).toBe(413);
    expect(sent).toBeGreaterThan(30 * 1024 * 1024);
    expect(sent).toBeLessThan(40 * 1024 * 1024);
  });

  test("max_body is configurable", async () => {
    const app = await startTranslate({ max_body: "1KB" });
    expect((await app.customer("POST", "/api/v1/translate", { ...ok, text: "x".repeat(2000) })).status).toBe(413);
    expect((await app.customer("POST", "/api/v1/translate", ok)).status).toBe(200);
  });

  test("429 above the configured rate per key, with Retry-After; refills with time", async () => {
    const app = createTranslateApp({ rate_limit: { requests: 3, per: "1m" } });
    for (let i = 0; i < 3; i++) expect((await app.customer("GET", "/api/v1/account")).status).toBe(200);
    const limited = await app.customer("GET", "/api/v1/account");
    expect(limited.status).toBe(429);
    expect(limited.json.code).toBe("TOO_MANY_REQUESTS");
    expect(limited.headers.get("retry-after")).toBe("20");
    expect((await app.customer2("GET", "/api/v1/account")).status).toBe(200);
    app.clock.advance(20_000);
    expect((await app.customer("GET", "/api/v1/account")).status).toBe(200);
    expect((await app.customer("GET", "/api/v1/account")).status).toBe(429);
  });

  test("503 with Retry-After in maintenance, except for administrators", async () => {
    const app = await startTranslate({ maintenance: true });
    for (const [key, path] of [
      [CUSTOMER, "/v1/account"],
      [CUSTOMER, "/api/v1/rates"],
      [TRANSLATOR, "/translator/v1/orders"],
    ]) {
      const res = await app.call("GET", path!, undefined, basic(key!));
      expect(res.status).toBe(503);
      expect(res.json.code).toBe("MAINTENANCE");
      expect(res.headers.get("retry-after")).toBe("60");
    }
    expect((await app.admin("GET", "/admin/v1/accounts")).status).toBe(200);
  });
});
