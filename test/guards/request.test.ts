import { describe, expect, test } from "bun:test";
import { expectPassed, expectRefused, makeGuard, request } from "./support";

describe("method guard", () => {
  test("POST only by default; others get 405 with an Allow header", async () => {
    const { guard } = makeGuard({ kind: "method" });
    await expectPassed(guard, request({ method: "POST" }));
    const v = await expectRefused(guard, request({ method: "GET" }), 405, /method GET is not allowed \(allowed: POST\)/);
    expect(!v.ok && v.headers).toEqual({ allow: "POST" });
  });

  test("configured methods, in any case", async () => {
    const { guard } = makeGuard({ kind: "method", allow: ["post", "PUT"] });
    await expectPassed(guard, request({ method: "PUT" }));
    await expectRefused(guard, request({ method: "DELETE" }), 405, /allowed: POST, PUT/);
  });
});

describe("content-type guard", () => {
  const { guard } = makeGuard({ kind: "content-type", allow: ["application/json", "text/*", "application/*+json"] });

  test("allowed types pass, parameters and case ignored", async () => {
    await expectPassed(guard, request({ headers: { "content-type": "Application/JSON; charset=utf-8" } }));
    await expectPassed(guard, request({ headers: { "content-type": "text/plain" } }));
    await expectPassed(guard, request({ headers: { "content-type": "application/vnd.github+json" } }));
  });

  test("other or missing types get 415", async () => {
    await expectRefused(
      guard,
      request({ headers: { "content-type": "application/x-www-form-urlencoded" } }),
      415,
      /application\/x-www-form-urlencoded is not allowed/,
    );
    await expectRefused(guard, request({ headers: { "content-type": "textual/plain" } }), 415, /not allowed/);
    await expectRefused(guard, request({ headers: { "content-type": "application/+json" } }), 415, /not allowed/);
    await expectRefused(guard, request({ headers: { "content-type": "application/jsonx" } }), 415, /not allowed/);
    await expectRefused(guard, request(), 415, /no Content-Type was sent/);
  });

  test("the default allows JSON only", async () => {
    const { guard: json } = makeGuard({ kind: "content-type" });
    await expectPassed(json, request({ headers: { "content-type": "application/json" } }));
    await expectRefused(json, request({ headers: { "content-type": "text/plain" } }), 415, /allowed: application\/json/);
  });
});

describe("max-body guard", () => {
  test("exposes its limit for the catching endpoint and refuses larger bodies itself", async () => {
    const { guard } = makeGuard({ kind: "max-body", max: "1KB" });
    expect(guard.maxBody).toBe(1024);
    await expectPassed(guard, request({ body: new Uint8Array(1024) }));
    await expectRefused(guard, request({ body: new Uint8Array(1025) }), 413, /body larger than 1024 bytes/);
  });

  test("sizes as numbers, and the default of 1MB", () => {
    expect(makeGuard({ kind: "max-body", max: 10 }).guard.maxBody).toBe(10);
    expect(makeGuard({ kind: "max-body" }).guard.maxBody).toBe(1024 * 1024);
  });

  test("only max-body guards expose a limit", () => {
    expect(makeGuard({ kind: "method" }).guard.maxBody).toBeUndefined();
  });
});
