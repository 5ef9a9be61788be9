/**
 * Export and import (docs/management-api.md): JSON lines keep ids, statuses, times, exact bytes and
 * events, and import is idempotent on ids; HAR 1.2 documents are well formed. Runs on every target.
 */
import { expect, test } from "bun:test";
import { AUTH, startTarget, type Target } from "../helpers/target";

const BINARY = new Uint8Array([0, 1, 2, 253, 254, 255, 10, 13]);

async function fill(t: Target): Promise<string[]> {
  await t.post("orders", JSON.stringify({ order: "ord_1", note: "é ✓" }), { "content-type": "application/json", "x-github-event": "push" });
  await t.post("orders", BINARY, { "content-type": "application/octet-stream" });
  const r = await t.fetch("/?channel=forms&x=1&y=%20z", { method: "PUT", body: "a=1&b=2", headers: { "content-type": "application/x-www-form-urlencoded" } });
  expect(r.status).toBe(200);
  const ids = (await t.call("GET", "/v1/hooks")).json.map((h: { id: string }) => h.id);
  await t.call("POST", `/v1/hooks/${ids[1]}/discard`);
  await t.call("POST", `/v1/hooks/${ids[2]}/fail`, { message: "could not parse" });
  return ids;
}

test("JSON lines out and in again: the same hooks, byte for byte, with their statuses and events; a second import skips them", async () => {
  const from = await startTarget();
  const ids = await fill(from);
  const before = await Promise.all(ids.map(async (id) => (await from.call("GET", `/v1/hooks/${id}`)).json));
  const res = await from.call("GET", "/v1/hooks/export?format=jsonl");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("application/x-ndjson");
  const lines = res.text.trim().split("\n");
  expect(lines.map((l) => JSON.parse(l).id)).toEqual(ids);
  expect(JSON.parse(lines[1]!).body).toBe(Buffer.from(BINARY).toString("base64"));
  expect((await from.call("GET", "/v1/hooks/export?q=ord_1")).text.trim().split("\n").length).toBe(1);
  expect(
    (await from.call("GET", `/v1/hooks/export?id=${ids[2]}`)).text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).id),
  ).toEqual([ids[2]]);

  const to = await startTarget();
  const ndjson = { ...AUTH, "content-type": "application/x-ndjson" };
  const first = await to.call("POST", "/v1/hooks/import", `${res.text}\nnot json\n{"id":"x"}\n`, ndjson);
  expect(first.status).toBe(200);
  expect(first.json).toEqual({
    imported: 3,
    skipped: 0,
    failed: [
      { line: 5, message: "not JSON" },
      { line: 6, message: "/channel: Expected required property" },
    ],
  });
  const after = await Promise.all(ids.map(async (id) => (await to.call("GET", `/v1/hooks/${id}`)).json));
  expect(after).toEqual(before);
  expect((await to.call("GET", "/v1/channels")).json).toEqual((await from.call("GET", "/v1/channels")).json);
  expect((await to.call("GET", "/v1/hooks?q=ord_1")).json.map((h: { id: string }) => h.id)).toEqual([ids[2]]);
  expect((await to.call("POST", "/v1/hooks/import", res.text, ndjson)).json).toEqual({ imported: 0, skipped: 3, failed: [] });
  expect((await to.call("POST", "/v1/hooks/import", res.text, { ...AUTH, "content-type": "application/json" })).status).toBe(400);
  expect((await to.call("GET", "/v1/hooks/export?format=xml")).status).toBe(400);
  expect((await to.call("GET", "/v1/hooks/export?id=01jd3q9x0c2m8t6v4r2k8p1w5z")).status).toBe(404);
  expect((await to.call("GET", "/v1/hooks/export", undefined, {})).status).toBe(401);
  await from.stop();
  await to.stop();
}, 30_000);

test("HAR 1.2: one entry per hook with the request as caught; a body that is not UTF-8 is base64", async () => {
  const t = await startTarget();
  const ids = await fill(t);
  const res = await t.call("GET", "/v1/hooks/export?format=har");
  expect(res.status).toBe(200);
  const har = JSON.parse(res.text);
  expect(har.log.version).toBe("1.2");
  expect(har.log.creator.name).toBe("mailroom");
  expect(har.log.entries.map((e: any) => e._mailroom.id)).toEqual(ids);
  const [form, binary, json] = har.log.entries;
  expect(form.request.method).toBe("PUT");
  expect(form.request.url).toEndWith("/?channel=forms&x=1&y=%20z");
  expect(form.request.queryString).toEqual([
    { name: "channel", value: "forms" },
    { name: "x", value: "1" },
    { name: "y", value: " z" },
  ]);
  expect(form.request.postData).toEqual({ mimeType: "application/x-www-form-urlencoded", text: "a=1&b=2" });
  expect(binary.request.postData._encoding).toBe("base64");
  expect(new Uint8Array(Buffer.from(binary.request.postData.text, "base64"))).toEqual(BINARY);
  expect(JSON.parse(json.request.postData.text)).toEqual({ order: "ord_1", note: "é ✓" });
  expect(json.request.headers).toContainEqual({ name: "x-github-event", value: "push" });
  for (const e of har.log.entries) {
    expect(Object.keys(e).sort()).toEqual(["_mailroom", "cache", "request", "response", "startedDateTime", "time", "timings"]);
    expect(e.request.httpVersion).toBe("HTTP/1.1");
    expect(e.response.status).toBe(200);
  }
  expect(JSON.parse((await t.call("GET", "/v1/hooks/export?format=har&q=nothing-at-all")).text).log.entries).toEqual([]);
  await t.stop();
}, 30_000);
