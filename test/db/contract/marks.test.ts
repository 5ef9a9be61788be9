/** MarkStore's contract (src/marks/store.ts) on SQLite and PostgreSQL: marks of hooks, and refusals found by delivery id. */
import { afterEach, describe, expect, test } from "bun:test";
import { pgDialect, sqliteDialect, type Dialect } from "../../../src/db/stores/dialect";
import { createMarkStore } from "../../../src/db/stores/marks";
import { createRefusalStore } from "../../../src/db/sqlite/refusal-store";
import { createPgRefusalStore } from "../../../src/db/pg/refusal-store";
import type { StoredRefusal } from "../../../src/hooks/guards/refusal-store";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

async function insertHooks(query: (text: string) => Promise<unknown>, ids: string[]) {
  for (const id of ids)
    await query(
      `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at) VALUES ('${id}', 'gh', 'pending', 'POST', '', '{}', '', '127.0.0.1', 1)`,
    );
}

const refusal = (id: string, channel: string, createdAt: number, deliveryId: string | null, kind: "refused" | "handshake" = "refused"): StoredRefusal => ({
  id,
  kind,
  channel,
  guard: "gh",
  status: 401,
  reason: "bad signature",
  ip: "127.0.0.1",
  method: "POST",
  query: "",
  headers: {},
  createdAt,
  diagnosis: null,
  deliveryId,
});

for (const backend of contractBackends(
  (db) => ({ marks: createMarkStore(sqliteDialect(db.$client) as Dialect), refusals: createRefusalStore(db) }),
  (t) => ({ marks: createMarkStore(pgDialect(t)), refusals: createPgRefusalStore(t) }),
)) {
  describe(`mark store on ${backend.name}`, () => {
    test("mark puts a mark on hooks that exist once; marked reads it; a deleted hook's marks go with it", async () => {
      const { store, query } = await backend.open();
      await insertHooks(query, ["h1", "h2", "h3"]);
      expect(await store.marks.mark(["h1", "h2", "missing", "h1"], "refusal", 1000)).toBe(2);
      expect(await store.marks.mark(["h1"], "refusal", 2000)).toBe(0);
      expect(await store.marks.marked(["h1", "h2", "h3", "missing"], "refusal")).toEqual(new Set(["h1", "h2"]));
      await query("DELETE FROM hooks WHERE id = 'h2'");
      expect(await store.marks.marked(["h1", "h2"], "refusal")).toEqual(new Set(["h1"]));
      const many = Array.from({ length: 1500 }, (_, i) => `m${String(i).padStart(5, "0")}`);
      await query(
        `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at) VALUES ${many.map((id) => `('${id}', 'gh', 'pending', 'POST', '', '{}', '', '127.0.0.1', 1)`).join(", ")}`,
      );
      expect(await store.marks.mark(many, "refusal", 3000)).toBe(1500);
      expect((await store.marks.marked(many, "refusal")).size).toBe(1500);
    });

    test("refusals are found by their channel and delivery id; handshakes and refusals without one are not", async () => {
      const { store } = await backend.open();
      await store.refusals.insert(
        [
          refusal("r1", "gh", 1000, "github:d1"),
          refusal("r2", "gh", 2000, "github:d1"),
          refusal("r3", "gh", 3000, null),
          refusal("r4", "other", 4000, "github:d2"),
          refusal("r5", "slack", 5000, "svix:h1", "handshake"),
        ],
        1000,
      );
      expect(await store.marks.refusedDeliveries("gh", ["github:d1", "github:d2", "github:none"])).toEqual(new Set(["github:d1"]));
      expect(await store.marks.refusedDeliveries("other", ["github:d1", "github:d2"])).toEqual(new Set(["github:d2"]));
      expect(await store.marks.refusedDeliveries("slack", ["svix:h1"])).toEqual(new Set());
      expect(await store.marks.refusedDeliveries("gh", [])).toEqual(new Set());
      expect(await store.marks.refusedChannels(0)).toEqual(
        new Map([
          ["gh", 2000],
          ["other", 4000],
        ]),
      );
      expect(await store.marks.refusedChannels(3000)).toEqual(new Map([["other", 4000]]));
      // Refusals trimmed away are no longer found.
      await store.refusals.insert([], 1);
      expect(await store.marks.refusedDeliveries("gh", ["github:d1"])).toEqual(new Set());
    });

    test("racing marks of the same hooks on two instances: no error, each mark once", async () => {
      const { store, another, query } = await backend.open();
      const other = await another();
      await insertHooks(query, ["h1", "h2"]);
      const { values, errors } = await race(Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).marks.mark(["h1", "h2"], "refusal", i)));
      expect(errors).toEqual([]);
      expect(values.reduce((a, b) => a + b, 0)).toBe(2);
      expect(await store.marks.marked(["h1", "h2"], "refusal")).toEqual(new Set(["h1", "h2"]));
    });
  });
}
