/** ForwardStore's contract (src/forwards/store.ts) on SQLite and PostgreSQL, with racing inserts of one name. */
import { afterEach, describe, expect, test } from "bun:test";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { createForwardStore } from "../../../src/db/stores/forwards";
import type { ForwardRow } from "../../../src/forwards/store";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

const forward = (name: string, over: Partial<ForwardRow> = {}): ForwardRow => ({
  name,
  channel: "gh",
  url: "https://example.com/in",
  headers: '{"x-a":"1"}',
  maxAttempts: 5,
  backoffInitialMs: 1000,
  backoffMaxMs: 3_600_000,
  timeoutMs: 30_000,
  createdAt: 1_700_000_000_000,
  chaos: null,
  when: "",
  rate: null,
  breaker: null,
  ...over,
});

for (const backend of contractBackends(
  (db) => createForwardStore(sqliteDialect(db.$client)),
  (t) => createForwardStore(pgDialect(t)),
)) {
  describe(`forward store on ${backend.name}`, () => {
    test("insert stores a handler once (false for a name taken); get and list read it back exactly, list by name", async () => {
      const { store } = await backend.open();
      expect(await store.get("fwd")).toBeUndefined();
      expect(await store.list()).toEqual([]);
      expect(await store.insert(forward("fwd"))).toBe(true);
      expect(await store.insert(forward("a-first", { channel: "*", headers: "{}", chaos: '{"duplicate":0.2,"reorder":"2s"}' }))).toBe(true);
      const controls = { when: "event_type:invoice.* payload.livemode:false", rate: "10/s", breaker: '{"failures":3,"cool_down":"1s"}' };
      expect(await store.insert(forward("billing", controls))).toBe(true);
      expect(await store.get("billing")).toEqual(forward("billing", controls));
      expect(await store.insert(forward("fwd", { url: "https://other.example/" }))).toBe(false);
      expect(await store.get("fwd")).toEqual(forward("fwd"));
      expect((await store.list()).map((f) => f.name)).toEqual(["a-first", "billing", "fwd"]);
    });

    test("remove says whether there was such a handler", async () => {
      const { store } = await backend.open();
      await store.insert(forward("fwd"));
      expect(await store.remove("fwd")).toBe(true);
      expect(await store.remove("fwd")).toBe(false);
      expect(await store.get("fwd")).toBeUndefined();
    });

    test("racing inserts of one name on two instances: exactly one is stored", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      const { values, errors } = await race(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).insert(forward("fwd", { url: `https://example.com/${i}` }))),
      );
      expect(errors).toEqual([]);
      expect(values.filter(Boolean)).toHaveLength(1);
      expect((await store.get("fwd"))!.url).toBe(`https://example.com/${values.indexOf(true)}`);
    });
  });
}
