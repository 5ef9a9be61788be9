/**
 * Every way a hook enters Mailroom takes what an HTTP parser takes (lib/http-syntax.ts): an RFC 9110
 * token as method, valid header names and values. An import line with a method such as `POST;x`
 * or a header name holding CR LF is refused, saying which line and why, and nothing of it is
 * stored; the other lines are imported, as with any bad line. Edit and send refuses such edits.
 * Runs on every target.
 */
import { expect, test } from "bun:test";
import { AUTH, startTarget } from "../helpers/target";

const ndjson = { ...AUTH, "content-type": "application/x-ndjson" };
const line = (id: string, changes: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    channel: "imported",
    status: "pending",
    method: "POST",
    query: "channel=imported",
    headers: { "content-type": "application/json" },
    body: Buffer.from("{}").toString("base64"),
    ip: "192.0.2.1",
    created_at: "2026-01-01T00:00:00Z",
    events: [],
    ...changes,
  });
const ID = (n: number) => `01jd00000000000000000000${String(n).padStart(2, "0")}`;

test("import: a method that is not a token, a header name with CR LF, a value with a control character or a query with a newline are refused line by line; the rest is imported", async () => {
  const t = await startTarget();
  const lines = [
    line(ID(1)),
    line(ID(2), { method: "POST;touch X;#" }),
    line(ID(3), { method: "POST;x" }),
    line(ID(4), { headers: { "x-a\r\nx-injected": "1" } }),
    line(ID(5), { headers: { "x-a": "1\r\nx-injected: 2" } }),
    line(ID(6), { headers: { "bad name": "1" } }),
    line(ID(7), { query: "channel=imported\ntouch X" }),
    line(ID(8), { method: "PATCH", headers: { "x-`tick`|$": "it's ok\tfine" } }),
  ];
  const res = await t.call("POST", "/v1/hooks/import", `${lines.join("\n")}\n`, ndjson);
  expect(res.status).toBe(200);
  expect(res.json).toEqual({
    imported: 2,
    skipped: 0,
    failed: [
      { line: 2, message: "/method: the method is not an HTTP token" },
      { line: 3, message: "/method: the method is not an HTTP token" },
      { line: 4, message: '/headers: header name "x-a\\r\\nx-injected" is not an HTTP token' },
      { line: 5, message: "/headers: header x-a: the value holds a control character" },
      { line: 6, message: '/headers: header name "bad name" is not an HTTP token' },
      { line: 7, message: "/query: must not contain spaces or control characters (a caught query has them percent-encoded)" },
    ],
  });
  expect((await t.call("GET", `/v1/hooks/${ID(1)}`)).status).toBe(200);
  expect((await t.call("GET", `/v1/hooks/${ID(8)}`)).json).toMatchObject({ method: "PATCH", headers: { "x-`tick`|$": "it's ok\tfine" } });
  for (const n of [2, 3, 4, 5, 6, 7]) expect((await t.call("GET", `/v1/hooks/${ID(n)}`)).status).toBe(404);
  expect((await t.call("GET", "/v1/hooks?channel=imported")).json.map((h: { id: string }) => h.id)).toEqual([ID(8), ID(1)]);
  await t.stop();
}, 30_000);

test("import: an ip holding a control character (a terminal escape `hooks show` would print) or a space is refused, as a relay frame's is", async () => {
  const t = await startTarget();
  const lines = [
    line(ID(11), { ip: "192.0.2.1\u001b]0;owned\u0007" }),
    line(ID(12), { ip: "192.0.2.1\r\nx" }),
    line(ID(13), { ip: "a b" }),
    line(ID(14), { ip: "" }),
  ];
  const res = await t.call("POST", "/v1/hooks/import", `${lines.join("\n")}\n`, ndjson);
  const refused = "/ip: must be an address: visible ASCII without spaces";
  expect(res.json).toEqual({
    imported: 1,
    skipped: 0,
    failed: [
      { line: 1, message: refused },
      { line: 2, message: refused },
      { line: 3, message: refused },
    ],
  });
  for (const n of [11, 12, 13]) expect((await t.call("GET", `/v1/hooks/${ID(n)}`)).status).toBe(404);
  await t.stop();
}, 30_000);

test("edit and send: an edited header name with CR LF or a value with one is a 400, and no hook is made", async () => {
  const t = await startTarget();
  const source = ((await (await t.post("orders", "{}", { "content-type": "application/json" })).json()) as { id: string }).id;
  for (const headers of [{ "x-a\r\nx-b": "1" }, { "x-a": "1\r\nx-b: 2" }, { "x a": "1" }]) {
    const sent = await t.call("POST", `/v1/hooks/${source}/send`, { channel: "staging", headers });
    expect(sent.status).toBe(400);
    expect(sent.json.code).toBe(3);
    const replayed = await t.call("POST", `/v1/hooks/${source}/replay`, { url: "http://127.0.0.1:1/", headers });
    expect(replayed.status).toBe(400);
  }
  expect((await t.call("GET", "/v1/hooks?channel=staging")).json).toEqual([]);
  await t.stop();
}, 30_000);
