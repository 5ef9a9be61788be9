import { expect, test } from "bun:test";
import { ValidationError, t } from "elysia";
import { hooksErrorResponse } from "../../src/hooks/errors";
import { AppError } from "../../src/lib/errors";
import type { Log } from "../../src/lib/log";

function recorder() {
  const lines: string[] = [];
  const log: Log = { info() {}, warn() {}, error: (m, f) => void lines.push(m + JSON.stringify(f)) };
  return { log, lines };
}
const request = new Request("http://localhost/v1/hooks");

test("an unexpected error answers 500 code 13 revealing nothing, and is logged with a request id", async () => {
  const { log, lines } = recorder();
  const res = hooksErrorResponse(new Error("SQLITE_CORRUPT: secret path /var/x"), "UNKNOWN", log, request);
  expect(res.status).toBe(500);
  const body = (await res.json()) as any;
  expect(body.code).toBe(13);
  expect(body.details).toEqual([]);
  expect(body.message).not.toContain("SQLITE");
  const id = /request id ([0-9a-f-]+)/.exec(body.message)![1]!;
  expect(lines.join()).toContain(id);
  expect(lines.join()).toContain("SQLITE_CORRUPT");
});

test("AppErrors map through the table, with their headers", async () => {
  const { log } = recorder();
  const res = hooksErrorResponse(new AppError("unavailable", "paused", { retryAfter: 60 }), "UNKNOWN", log, request);
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("60");
  expect(await res.json()).toEqual({ code: 14, message: "paused", details: [] });
});

test("a response that fails its own schema is a 500, not a 400", () => {
  const { log } = recorder();
  const err = Object.assign(new Error("bad response"), { type: "response", all: [] });
  expect(hooksErrorResponse(err, "VALIDATION", log, request).status).toBe(500);
});

test("a response that fails its schema is logged by where it failed, never with the response itself", () => {
  const { log, lines } = recorder();
  const body = "x".repeat(10_000);
  const err = new ValidationError("response", t.Object({ id: t.Integer(), body: t.String() }), { id: "no", body });
  expect(hooksErrorResponse(err, "VALIDATION", log, request).status).toBe(500);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain("/id");
  expect(lines[0]).not.toContain(body);
});
