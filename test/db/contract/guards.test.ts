/** GuardStore's contract (src/hooks/guard-store.ts) on SQLite and PostgreSQL, with racing writes of one name. */
import { afterEach, describe, expect, test } from "bun:test";
import type { GuardRow } from "../../../src/hooks/guard-store";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { createGuardStore } from "../../../src/db/stores/guards";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

const guard = (name: string, over: Partial<GuardRow> = {}): GuardRow => ({
  name,
  kind: "token",
  settings: '{"header":"x-token"}',
  secret: "s3cret",
  createdAt: 1000,
  updatedAt: 1000,
  ...over,
});

for (const backend of contractBackends(
  (db) => createGuardStore(sqliteDialect(db.$client)),
  (t) => createGuardStore(pgDialect(t)),
)) {
  describe(`guard store on ${backend.name}`, () => {
    test("insert stores a guard once (false for a name taken); get and list read it back, list by name", async () => {
      const { store } = await backend.open();
      expect(await store.get("sig")).toBeUndefined();
      expect(await store.list()).toEqual([]);
      expect(await store.insert(guard("sig"))).toBe(true);
      expect(await store.insert(guard("allow", { kind: "ip-allow", secret: null, settings: '{"allow":["10.0.0.0/8"]}' }))).toBe(true);
      expect(await store.insert(guard("sig", { kind: "method" }))).toBe(false);
      expect(await store.get("sig")).toEqual(guard("sig"));
      expect((await store.list()).map((g) => [g.name, g.kind, g.secret])).toEqual([
        ["allow", "ip-allow", null],
        ["sig", "token", "s3cret"],
      ]);
    });

    test("update replaces settings and secret (false for no such guard); remove says whether it was there", async () => {
      const { store } = await backend.open();
      await store.insert(guard("sig"));
      expect(await store.update("sig", '{"header":"x-other"}', null, 2000)).toBe(true);
      expect(await store.update("nope", "{}", null, 2000)).toBe(false);
      expect(await store.get("sig")).toEqual(guard("sig", { settings: '{"header":"x-other"}', secret: null, updatedAt: 2000 }));
      expect(await store.remove("sig")).toBe(true);
      expect(await store.remove("sig")).toBe(false);
      expect(await store.update("sig", "{}", null, 3000)).toBe(false);
    });

    test("racing inserts of one name on two instances: exactly one is stored", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      const { values, errors } = await race(Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).insert(guard("sig", { settings: `{"n":${i}}` }))));
      expect(errors).toEqual([]);
      expect(values.filter(Boolean)).toHaveLength(1);
      expect((await store.get("sig"))!.settings).toBe(`{"n":${values.indexOf(true)}}`);
    });

    test("an update racing a remove on two instances: the guard is gone, and the update says whether it found it", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      for (let round = 0; round < 5; round++) {
        await store.insert(guard("sig"));
        const [updated, removed] = await Promise.all([other.update("sig", "{}", null, 2000 + round), store.remove("sig")]);
        expect(removed).toBe(true);
        expect(typeof updated).toBe("boolean");
        expect(await store.get("sig")).toBeUndefined();
      }
    });
  });
}
