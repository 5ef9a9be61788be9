import { expect, test } from "bun:test";
import { formatTailLine } from "../../src/cli/tail";

test("a tail line writes the sender's content type and event type with control and format characters as escapes", () => {
  const line = formatTailLine({
    id: "01jd0000000000000000000001",
    channel: "orders",
    status: "pending",
    method: "POST",
    query: "",
    headers: {},
    content_type: "text/plain\u009b2J",
    body: "",
    ip: "192.0.2.1",
    created_at: "2026-01-01T00:00:00Z",
    events: [],
    // Kept by an earlier version, which dropped neither.
    event_type: "push\u001b[2J\u202eevil",
  });
  expect(line).toContain("text/plain\\x9b2J");
  expect(line).toContain("push\\x1b[2J\\u202eevil");
  expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
});
