/** RefusalStore's contract (src/hooks/guards/refusal-store.ts) on SQLite and PostgreSQL. */
import { afterEach, describe, expect, test } from "bun:test";
import { createPgRefusalStore } from "../../../src/db/pg/refusal-store";
import { createRefusalStore } from "../../../src/db/sqlite/refusal-store";
import type { Refusal } from "../../../src/hooks/guards/types";
import { closeBackends, contractBackends } from "./backends";

afterEach(closeBackends);

const refusal = (n: number, over: Partial<Refusal> = {}): Refusal => ({
  id: `01jd0000000000000000000${String(n).padStart(3, "0")}`,
  kind: "refused",
  query: "channel=gh&token=[redacted]",
  headers: { "content-type": "application/json", "x-hub-signature-256": "sha256=00" },
  channel: "gh",
  guard: "sig",
  status: 401,
  reason: `bad signature ${n}`,
  ip: "10.0.0.1",
  method: "POST",
  diagnosis: null,
  createdAt: 1000 + n,
  ...over,
});

for (const backend of contractBackends(createRefusalStore, createPgRefusalStore)) {
  describe(`refusal store on ${backend.name}`, () => {
    test("list: newest first, of one channel and/or guard, at most `limit`", async () => {
      const { store } = await backend.open();
      expect(await store.list({ limit: 10 })).toEqual([]);
      await store.insert([refusal(1), refusal(2, { channel: "shop" }), refusal(3, { guard: "ips", status: 403 })], 100);
      await store.insert([refusal(4)], 100);
      expect((await store.list({ limit: 10 })).map((r) => r.createdAt)).toEqual([1004, 1003, 1002, 1001]);
      expect(await store.list({ limit: 1 })).toEqual([refusal(4)]);
      expect((await store.list({ channel: "gh", limit: 10 })).map((r) => r.createdAt)).toEqual([1004, 1003, 1001]);
      expect(await store.list({ guard: "ips", limit: 10 })).toEqual([refusal(3, { guard: "ips", status: 403 })]);
      expect(await store.list({ channel: "shop", guard: "ips", limit: 10 })).toEqual([]);
      expect(await store.list({ status: 403, limit: 10 })).toEqual([refusal(3, { guard: "ips", status: 403 })]);
    });

    test("a handshake answered is kept as kind handshake, and `kind` filters", async () => {
      const { store } = await backend.open();
      const slack = refusal(2, { kind: "handshake", guard: "slack", status: 200, reason: "handshake: url_verification answered" });
      await store.insert([refusal(1), slack, refusal(3, { status: 403 })], 100);
      expect(await store.list({ kind: "handshake", limit: 10 })).toEqual([slack]);
      expect((await store.list({ kind: "refused", limit: 10 })).map((r) => r.createdAt)).toEqual([1003, 1001]);
      expect(await store.list({ kind: "handshake", channel: "shop", limit: 10 })).toEqual([]);
      expect((await store.list({ limit: 10 })).map((r) => r.kind)).toEqual(["refused", "handshake", "refused"]);
      expect(await store.get(slack.id)).toEqual(slack);
    });

    test("get: one refusal by its id, with its query and headers; undefined for an unknown id", async () => {
      const { store } = await backend.open();
      await store.insert([refusal(1), refusal(2, { guard: "", status: 503, headers: {} })], 100);
      expect(await store.get(refusal(2).id)).toEqual(refusal(2, { guard: "", status: 503, headers: {} }));
      expect(await store.get(refusal(1).id)).toEqual(refusal(1));
      expect(await store.get("01jd0000000000000000000999")).toBeUndefined();
    });

    test("insert keeps only the newest `kept`; an empty batch still trims", async () => {
      const { store } = await backend.open();
      await store.insert(
        Array.from({ length: 8 }, (_, i) => refusal(i)),
        5,
      );
      expect((await store.list({ limit: 100 })).map((r) => r.createdAt)).toEqual([1007, 1006, 1005, 1004, 1003]);
      await store.insert([], 2);
      expect((await store.list({ limit: 100 })).map((r) => r.createdAt)).toEqual([1007, 1006]);
    });

    test("the saved requests are kept newest first up to `keptBytes` in all; older refusals keep their rows", async () => {
      const { store } = await backend.open();
      const saved = (n: number) => ({ ...refusal(n), savedRequest: JSON.stringify({ body: "x".repeat(990 + n) }) });
      const size = (n: number) => Buffer.byteLength(saved(n).savedRequest);
      // Three of about 1 KB each in 2.5 KB: the newest two keep theirs.
      await store.insert([saved(1), saved(2)], 100, 2500);
      await store.insert([saved(3)], 100, 2500);
      expect(size(2) + size(3)).toBeLessThanOrEqual(2500);
      expect(await store.savedRequest(refusal(3).id)).toBe(saved(3).savedRequest);
      expect(await store.savedRequest(refusal(2).id)).toBe(saved(2).savedRequest);
      expect(await store.savedRequest(refusal(1).id)).toBeUndefined();
      expect(await store.get(refusal(1).id)).toEqual(refusal(1));
      // A refusal without a request weighs nothing: the next one with a request counts after it.
      await store.insert([refusal(4)], 100, 2500);
      await store.insert([saved(5)], 100, 2500);
      expect(await store.savedRequest(refusal(5).id)).toBe(saved(5).savedRequest);
      expect(await store.savedRequest(refusal(3).id)).toBe(saved(3).savedRequest);
      expect(await store.savedRequest(refusal(2).id)).toBeUndefined();
      expect((await store.list({ limit: 100 })).map((r) => r.createdAt)).toEqual([1005, 1004, 1003, 1002, 1001]);
    });
  });
}
