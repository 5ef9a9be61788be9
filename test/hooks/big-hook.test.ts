import { describe, expect, test } from "bun:test";
import type { Log } from "../../src/lib/log";
import { createTestApp } from "../helpers/app";

/** A log that keeps every line it is given, as main.ts would print it. */
function keptLog() {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  const log: Log = { info: keep("info"), warn: keep("warn"), error: keep("error") };
  return { log, lines };
}

/** A JSON object body of about `mb` MiB (under the default max_body of 10 MB). */
function bigJson(mb: number): string {
  const item = '"abcdefghijklmnopqrstuvwxyz0123456789+/ABCDEFGHIJKLMNOPQRSTUVWX"';
  return `{"items":[${Array.from({ length: Math.floor((mb * 1024 * 1024) / (item.length + 1)) }, () => item).join(",")}]}`;
}

describe("a hook of several megabytes", () => {
  const { log, lines } = keptLog();
  const t = createTestApp({}, { log });
  const body = bigJson(6);

  test("is read back whole by get and list, and nothing about it reaches the log", async () => {
    const caught = await t.post("big", body, { "content-type": "application/json" });
    expect(caught.status).toBe(200);
    const { id } = (await caught.json()) as { id: string };

    const got = await t.call("GET", `/v1/hooks/${id}`);
    expect(got.status).toBe(200);
    expect(Buffer.from(got.json.body, "base64").toString()).toBe(body);
    expect(got.json.payload.items.length).toBe(JSON.parse(body).items.length);

    const listed = await t.call("GET", "/v1/hooks?channel=big");
    expect(listed.status).toBe(200);
    expect(listed.json.map((h: { id: string }) => h.id)).toEqual([id]);
    expect(Buffer.from(listed.json[0].body, "base64").toString()).toBe(body);

    // A log line never carries a body (nor would one be printed for this read at all).
    expect(lines.filter((l) => l.length > 4096)).toEqual([]);
  }, 60_000);
});

describe("a page of large hooks", () => {
  test("is answered as it is read, a hook after another: catching and deletes go on meanwhile, and the page stays valid JSON", async () => {
    const t = createTestApp();
    const body = bigJson(1);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(((await (await t.post("pages", body, { "content-type": "application/json" })).json()) as { id: string }).id);

    const res = await t.app.handle(new Request("http://localhost/v1/hooks?channel=pages", { headers: { authorization: "Bearer test-token-0123456789" } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    const reader = res.body!.getReader();
    const chunks = [(await reader.read()).value!];
    // The newest hook has been sent; meanwhile a hook is caught and the oldest one is deleted.
    expect((await t.post("pages", "{}")).status).toBe(200);
    expect((await t.call("DELETE", `/v1/hooks/${ids[0]}`)).status).toBe(200);
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);

    const page = JSON.parse(Buffer.concat(chunks).toString()) as { id: string; body: string }[];
    // Read after the delete, the oldest is left out; the hook caught meanwhile is newer than the page.
    expect(page.map((h) => h.id)).toEqual([ids[2]!, ids[1]!]);
    for (const h of page) expect(Buffer.from(h.body, "base64").toString()).toBe(body);
  }, 60_000);
});
