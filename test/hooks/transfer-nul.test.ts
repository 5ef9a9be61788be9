/**
 * Import lines must say exactly what to store on every database and machine. A line with a NUL character in a text field is refused with a reason on every database:
 * PostgreSQL's text cannot hold one, so without the check SQLite stored the line while PostgreSQL
 * failed the whole import.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createPgTransferStore } from "../../src/db/pg/transfer-store";
import { createTransferStore } from "../../src/db/sqlite/transfer-store";
import { parseLine } from "../../src/transfer/wire";
import { closeBackends, contractBackends } from "../db/contract/backends";

afterEach(closeBackends);

const line = {
  id: "01jd0000000000000000000001",
  channel: "imported",
  status: "failed",
  method: "POST",
  query: "a=1",
  headers: { "x-a": "b" },
  body: "",
  ip: "192.0.2.1",
  created_at: "2026-01-01T00:00:00Z",
  events: [{ kind: "failed", actor: "worker", message: "boom", created_at: "2026-01-01T00:00:00Z" }],
};

test("a NUL in method, query, ip, event_type or an event is refused with the field's path", () => {
  for (const [field, value, where] of [
    ["method", "PO\u0000ST", "/method"],
    ["query", "a=\u0000", "/query"],
    ["ip", "192.0.2.1\u0000", "/ip"],
    ["event_type", "push\u0000", "/event_type"],
  ] as const) {
    expect(() => parseLine(JSON.stringify({ ...line, [field]: value }))).toThrow(`${where}: must not contain NUL`);
  }
  const events = [{ ...line.events[0], message: "x\u0000" }];
  expect(() => parseLine(JSON.stringify({ ...line, events }))).toThrow("/events/0/message: must not contain NUL");
});

test("an imported event type loses its format characters as a caught one does (an export of an earlier version kept them); headers and body stay exact", () => {
  const headers = { "x-github-event": "push\u202eevil" };
  const body = Buffer.from('{"type":"a\u202eb"}').toString("base64");
  const hook = parseLine(JSON.stringify({ ...line, headers, body, event_type: "push\u202e\u200bevil" }));
  expect(hook.eventType).toBe("pushevil");
  expect(hook.headers).toEqual(headers);
  expect(Buffer.from(hook.body).toString("base64")).toBe(body);
});

for (const backend of contractBackends(createTransferStore, (t) => createPgTransferStore(t, 4))) {
  describe(backend.name, () => {
    test("a line that parses is stored", async () => {
      const b = await backend.open();
      const stored = await b.transaction(() => b.store.importHooks([parseLine(JSON.stringify(line))], () => []));
      expect(stored).toEqual([line.id]);
    }, 30_000);
  });
}

test("a time without its offset is refused: read as local time, it would depend on the machine's zone", () => {
  expect(() => parseLine(JSON.stringify({ ...line, created_at: "2026-01-01T00:00:00" }))).toThrow("/created_at: must be an RFC 3339 time");
  expect(parseLine(JSON.stringify({ ...line, created_at: "2026-01-01T01:00:00.5+01:00" })).createdAt).toBe(Date.UTC(2026, 0, 1, 0, 0, 0, 500));
});
