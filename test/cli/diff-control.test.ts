/**
 * `mailroom hooks diff` prints the senders' keys (JSON body keys, query names): their control
 * characters are written as escapes, so a caught hook cannot drive the terminal of whoever compares it.
 */
import { expect, test } from "bun:test";
import { formatHookDiff } from "../../src/cli/diff";
import type { WireHook } from "../../src/cli/show";

const hook = (id: string, query: string, body: string): WireHook => ({
  id,
  channel: "c",
  status: "pending",
  method: "POST",
  query,
  headers: { "content-type": "application/json" },
  content_type: "application/json",
  body: Buffer.from(body).toString("base64"),
  payload: JSON.parse(body),
  ip: "192.0.2.1",
  created_at: "2026-11-26T10:00:00Z",
  events: [],
});

test("control characters of body keys and query names are escaped in the diff", () => {
  const a = hook("a", "x=1", '{"n":1}');
  const b = hook("b", "x=1&%1B%5D0%3Bowned%07=2", '{"n":1,"\\u001b[2J\\u009b":"\\u009b"}');
  const text = formatHookDiff(a, b);
  expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  expect(text).toContain('+ query.\\x1b]0;owned\\x07: "2"');
  expect(text).toContain('+ body.\\x1b[2J\\x9b: "\\x9b"');
});
