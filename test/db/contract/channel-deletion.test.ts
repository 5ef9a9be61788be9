/**
 * The hook store's part of a channel's deletion (src/hooks/store.ts: beginDeletion, endDeletion,
 * and setPaused and upsertChannel while a deletion runs) on SQLite and PostgreSQL, with a deletion
 * begun on two instances at once. The rest of the hook store: test/db/store-contract.test.ts.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createPgHookStore } from "../../../src/db/pg/hook-store";
import { createHookStore } from "../../../src/db/sqlite/hook-store";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

for (const backend of contractBackends((db) => createHookStore(db), createPgHookStore)) {
  describe(`channel deletion in the hook store on ${backend.name}`, () => {
    test("beginDeletion: begun, then busy for another deletion; missing for no channel; a stale mark is taken over", async () => {
      const { store } = await backend.open();
      await store.upsertChannel("c", [], 1);
      expect(await store.beginDeletion("nope", 1000, 0)).toBe("missing");
      expect(await store.beginDeletion("c", 1000, 0)).toBe("begun");
      expect(await store.beginDeletion("c", 2000, 1000)).toBe("busy");
      expect(await store.beginDeletion("c", 3000, 1001)).toBe("begun");
      await store.endDeletion("c");
      await store.endDeletion("nope");
      expect(await store.beginDeletion("c", 4000, 3500)).toBe("begun");
    });

    test("while a deletion runs: a pause and new guards change nothing (false); a resume is kept; after it, both work", async () => {
      const { store } = await backend.open();
      await store.upsertChannel("c", ["a"], 1);
      await store.setPaused("c", true);
      expect(await store.beginDeletion("c", 1000, 0)).toBe("begun");
      expect(await store.setPaused("c", false)).toBe(true);
      expect(await store.setPaused("c", true)).toBe(false);
      expect(await store.upsertChannel("c", ["b"], 2)).toBe(false);
      expect(await store.getChannel("c")).toMatchObject({ paused: false, guards: ["a"] });
      await store.endDeletion("c");
      expect(await store.setPaused("c", true)).toBe(true);
      expect(await store.upsertChannel("c", ["b"], 2)).toBe(true);
      expect(await store.getChannel("c")).toMatchObject({ paused: true, guards: ["b"] });
      expect(await store.setPaused("nope", true)).toBe(false);
      expect(await store.upsertChannel("new", ["x"], 3)).toBe(true);
    });

    test("a channel deleted with its mark and created again starts unmarked", async () => {
      const { store, transaction } = await backend.open();
      await store.upsertChannel("c", [], 1);
      await store.beginDeletion("c", 1000, 0);
      expect(await transaction(() => store.deleteChannel("c"))).toBe(true);
      expect(await store.upsertChannel("c", ["g"], 2)).toBe(true);
      expect(await store.setPaused("c", true)).toBe(true);
    });

    test("a deletion begun on two instances at once, and pauses racing it: one deletion begins; no pause lands after it", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      for (let round = 0; round < 5; round++) {
        const name = `c${round}`;
        await store.upsertChannel(name, [], 1);
        const begins = race(Array.from({ length: 6 }, (_, i) => (i % 2 ? store : other).beginDeletion(name, 1000, 0)));
        const pauses = race(Array.from({ length: 6 }, (_, i) => (i % 2 ? other : store).setPaused(name, true)));
        const [b, p] = await Promise.all([begins, pauses]);
        expect([b.errors, p.errors]).toEqual([[], []]);
        expect(b.values.filter((v) => v === "begun")).toHaveLength(1);
        expect(b.values.filter((v) => v === "busy")).toHaveLength(5);
        // The mark is set now: whatever raced, a pause is refused from here on.
        expect(await other.setPaused(name, true)).toBe(false);
      }
    });
  });
}
