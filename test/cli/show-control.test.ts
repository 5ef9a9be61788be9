/**
 * `mailroom hooks show` and `hooks ls` print what a sender chose (headers, a content type, the
 * body as text) to the operator's terminal: C1 controls (U+009B is a CSI) and format characters
 * (a right-to-left override) are written as escapes, line breaks and tabs of a text body kept.
 * `hooks body` still prints the exact bytes.
 */
import { expect, test } from "bun:test";
import { formatHook, formatHookRow, type WireHook } from "../../src/cli/show";

const hook = (body: string, headers: Record<string, string>, content_type: string): WireHook => ({
  id: "01jd0000000000000000000001",
  channel: "orders",
  status: "pending",
  method: "POST",
  query: "",
  headers,
  content_type,
  body: Buffer.from(body).toString("base64"),
  ip: "192.0.2.1",
  created_at: "2026-01-01T00:00:00Z",
  events: [],
});

const RAW = /[\u0080-\u009f\u202e]/;

test("hooks show: a header's 8-bit control and a text body's override and C1 control are escapes; lines and tabs stay", () => {
  const out = formatHook(hook("line one\u202e\tcol\nline two \u009b2J", { "x-note": "a\u009b2Jb" }, "text/plain"));
  expect(out).not.toMatch(RAW);
  expect(out).toContain("x-note: a\\x9b2Jb");
  expect(out).toContain("line one\\u202e\tcol\nline two \\x9b2J");
});

test("hooks show: a JSON body's strings keep their escapes visible", () => {
  const out = formatHook(hook('{"type":"a\u202eb"}', { "content-type": "application/json" }, "application/json"));
  expect(out).not.toMatch(RAW);
  expect(out).toContain('"type": "a\\u202eb"');
});

test("hooks ls: the content type's 8-bit control is an escape", () => {
  const row = formatHookRow(hook("", {}, "text/plain\u009b2J"));
  expect(row).not.toMatch(RAW);
  expect(row).toContain("text/plain\\x9b2J");
});
