import { describe, expect, test } from "bun:test";
import type { RawHook } from "../../src/hooks/store";
import { forwardHeaders } from "../../src/runner/handlers/forward";
import { toHookJson } from "../../src/runner/hook-json";
import { clip, readBounded } from "../../src/runner/excerpt";

const hook = (headers: Record<string, string>, body: Uint8Array = new Uint8Array()): RawHook => ({
  id: "01jaaaaaaaaaaaaaaaaaaaaaaa",
  eventType: "",
  channel: "shop",
  status: "pending",
  method: "PUT",
  query: "channel=shop&x=1",
  headers,
  body,
  ip: "203.0.113.9",
  createdAt: Date.parse("2026-01-01T00:00:00Z"),
  finalizedAt: null,
});

describe("forwardHeaders", () => {
  test("redacted credentials are not forwarded", () => {
    const hook = { headers: { authorization: "[redacted]", "x-hub-signature-256": "sha256=ab" } } as unknown as Parameters<typeof forwardHeaders>[0];
    const h = forwardHeaders(hook, 1, {});
    expect(h.has("authorization")).toBe(false);
    expect(h.get("x-hub-signature-256")).toBe("sha256=ab");
  });

  test("drops hop-by-hop headers and those the Connection header names; adds the identifying ones", () => {
    const h = forwardHeaders(
      hook({
        connection: "close, X-Secret-Hop",
        "keep-alive": "timeout=5",
        "transfer-encoding": "chunked",
        te: "trailers",
        trailer: "x",
        upgrade: "h2c",
        "proxy-authorization": "Basic x",
        "proxy-connection": "keep-alive",
        host: "mailroom.local",
        "content-length": "12",
        "x-secret-hop": "1",
        "content-type": "application/json",
        "x-shopify-topic": "orders/create",
        "user-agent": "Shopify",
      }),
      3,
      { "x-token_env": "X", "x-token": "t" },
    );
    expect(Object.fromEntries(h)).toEqual({
      "content-type": "application/json",
      "x-shopify-topic": "orders/create",
      "user-agent": "Shopify",
      "x-mailroom-hook-id": "01jaaaaaaaaaaaaaaaaaaaaaaa",
      "x-mailroom-channel": "shop",
      "x-mailroom-attempt": "3",
      "x-token": "t",
    });
  });

  test("the sender cannot forge the identifying headers; configured headers win over the sender's", () => {
    const h = forwardHeaders(hook({ "x-mailroom-hook-id": "forged", authorization: "from-sender" }), 1, { authorization: "Bearer mine" });
    expect(h.get("x-mailroom-hook-id")).toBe("01jaaaaaaaaaaaaaaaaaaaaaaa");
    expect(h.get("authorization")).toBe("Bearer mine");
  });
});

describe("toHookJson", () => {
  test("body in base64, body_text when UTF-8, content type without parameters, RFC 3339 time", () => {
    const json = toHookJson(hook({ "content-type": "Application/JSON; charset=utf-8" }, new TextEncoder().encode('{"é":1}')));
    expect(json).toEqual({
      id: "01jaaaaaaaaaaaaaaaaaaaaaaa",
      channel: "shop",
      method: "PUT",
      query: "channel=shop&x=1",
      headers: { "content-type": "Application/JSON; charset=utf-8" },
      content_type: "application/json",
      body: Buffer.from('{"é":1}').toString("base64"),
      body_text: '{"é":1}',
      ip: "203.0.113.9",
      created_at: "2026-01-01T00:00:00.000Z",
    });
  });
  test("no body_text for bytes that are not UTF-8; an empty body is an empty text", () => {
    expect(toHookJson(hook({}, new Uint8Array([0xc3, 0x28]))).body_text).toBeUndefined();
    expect(toHookJson(hook({})).body_text).toBe("");
  });
});

describe("excerpts", () => {
  test("clip keeps short text and says how much it cut", () => {
    expect(clip("abc", 5)).toBe("abc");
    expect(clip("abcdefgh", 5)).toBe("abcde… (3 more characters)");
  });
  test("readBounded drains the whole stream but keeps only the start", async () => {
    const stream = new Response("y".repeat(10_000)).body!;
    expect(await readBounded(stream, 4)).toBe("yyyy… (9996 more bytes)");
    expect(await readBounded(null)).toBe("");
  });
});
