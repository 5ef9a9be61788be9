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
