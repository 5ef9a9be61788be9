/** ResponseStore's contract (src/responses/store.ts) on SQLite and PostgreSQL, with racing saves of one channel. */
import { afterEach, describe, expect, test } from "bun:test";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { createResponseStore } from "../../../src/db/stores/responses";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

for (const backend of contractBackends(
  (db) => createResponseStore(sqliteDialect(db.$client)),
  (t) => createResponseStore(pgDialect(t)),
)) {
  describe(`response store on ${backend.name}`, () => {
    test("save stores or replaces a channel's setting; list is by channel; remove of none is no error", async () => {
      const { store } = await backend.open();
      expect(await store.list()).toEqual([]);
      await store.save("shop", '{"status":202}', 1000);
      await store.save("gh", '{"status":500}', 1000);
      await store.save("shop", '{"status":204}', 2000);
      expect(await store.list()).toEqual([
        { channel: "gh", setting: '{"status":500}' },
        { channel: "shop", setting: '{"status":204}' },
      ]);
      await store.remove("gh");
      await store.remove("never-set");
      expect(await store.list()).toEqual([{ channel: "shop", setting: '{"status":204}' }]);
    });

    test("racing saves of one channel on two instances: one setting remains, one of theirs", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      const { errors } = await race(Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).save("shop", `{"status":${200 + i}}`, i)));
      expect(errors).toEqual([]);
      const stored = await store.list();
      expect(stored).toHaveLength(1);
      expect(Array.from({ length: 10 }, (_, i) => `{"status":${200 + i}}`)).toContain(stored[0]!.setting);
    });
  });
}
