import { afterAll, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { rawExchange, rawJson, rawStatus } from "../helpers/raw";

/**
 * Bodies sent with each method, over a real socket: Bun hands a GET or HEAD request to the app
 * without its body (it reads and drops it), so such a body cannot be kept; every other method's
 * body is kept byte for byte, declared or chunked.
 */
const t = createTestApp();
const server = t.listen();
const port = Number(new URL(server.url).port);
afterAll(() => server.stop());

const BODY = '{"kept":"byte for byte \\u00e9"}\n';
const withLength = (method: string, channel: string) =>
  `${method} /?channel=${channel} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\nConnection: close\r\n\r\n${BODY}`;
const chunked = (method: string, channel: string) =>
  `${method} /?channel=${channel} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
  `5\r\n${BODY.slice(0, 5)}\r\n${Buffer.byteLength(BODY.slice(5)).toString(16)}\r\n${BODY.slice(5)}\r\n0\r\n\r\n`;
const hooksOf = async (channel: string) => (await t.call("GET", `/v1/hooks?channel=${channel}`)).json as { method: string; body: string }[];

test("a GET with a body is refused with a message saying why, and nothing is stored, declared or chunked", async () => {
  for (const [send, channel] of [
    [withLength, "get-length"],
    [chunked, "get-chunked"],
  ] as const) {
    const answer = await rawExchange(port, send("GET", channel));
    expect(rawStatus(answer)).toBe(400);
    const body = rawJson(answer);
    expect(body.code).toBe(3);
    expect(body.message).toContain("GET");
    expect(body.message).toContain("body");
    expect(answer.toLowerCase()).toContain("access-control-allow-origin: *");
    expect(await hooksOf(channel)).toEqual([]);
  }
});

test("a GET without a body (or with Content-Length: 0) is caught as before", async () => {
  const plain = await rawExchange(port, "GET /?channel=get-plain&a=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  expect(rawStatus(plain)).toBe(200);
  const zero = await rawExchange(port, "GET /?channel=get-plain&a=2 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  expect(rawStatus(zero)).toBe(200);
  expect((await hooksOf("get-plain")).map((h) => [h.method, h.body])).toEqual([
    ["GET", ""],
    ["GET", ""],
  ]);
});

test("DELETE, PUT, PATCH and POST bodies are kept byte for byte, declared or chunked", async () => {
  for (const method of ["DELETE", "PUT", "PATCH", "POST"]) {
    const channel = `m-${method.toLowerCase()}`;
    for (const send of [withLength, chunked]) expect(rawStatus(await rawExchange(port, send(method, channel)))).toBe(200);
    const hooks = await hooksOf(channel);
    expect(hooks.map((h) => h.method)).toEqual([method, method]);
    for (const h of hooks) expect(Buffer.from(h.body, "base64").toString()).toBe(BODY);
  }
});

test("HEAD and OPTIONS with a body are not caught: 405 and a CORS preflight, nothing stored", async () => {
  for (const send of [withLength, chunked]) {
    expect(rawStatus(await rawExchange(port, send("HEAD", "m-head")))).toBe(405);
    expect(rawStatus(await rawExchange(port, send("OPTIONS", "m-options")))).toBe(204);
  }
  expect(await hooksOf("m-head")).toEqual([]);
  expect(await hooksOf("m-options")).toEqual([]);
});
