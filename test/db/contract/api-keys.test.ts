/**
 * ApiKeyStore's contract (src/hooks/api-key-store.ts) on SQLite and PostgreSQL, with racing
 * writes of one label.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createApiKeyStore } from "../../../src/db/stores/api-keys";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

for (const backend of contractBackends(
  (db) => createApiKeyStore(sqliteDialect(db.$client)),
  (t) => createApiKeyStore(pgDialect(t)),
)) {
  describe(`api key store on ${backend.name}`, () => {
    test("insert stores a key once (false for a label taken); list is by label", async () => {
      const { store } = await backend.open();
      expect(await store.list()).toEqual([]);
      expect(await store.insert("zed", "aa".repeat(32), 1000)).toBe(true);
      expect(await store.insert("ci", "bb".repeat(32), 2000)).toBe(true);
      expect(await store.insert("ci", "cc".repeat(32), 3000)).toBe(false);
      expect(await store.list()).toEqual([
        { label: "ci", sha256: "bb".repeat(32), createdAt: 2000, lastUsedAt: null },
        { label: "zed", sha256: "aa".repeat(32), createdAt: 1000, lastUsedAt: null },
      ]);
    });

    test("replace puts a new hash in the label's place (its last use forgotten), or stores it when absent", async () => {
      const { store } = await backend.open();
      await store.insert("local", "aa".repeat(32), 1000);
      await store.touch("local", 1500);
      await store.replace("local", "bb".repeat(32), 2000);
      await store.replace("other", "cc".repeat(32), 2500);
      expect(await store.list()).toEqual([
        { label: "local", sha256: "bb".repeat(32), createdAt: 2000, lastUsedAt: null },
        { label: "other", sha256: "cc".repeat(32), createdAt: 2500, lastUsedAt: null },
      ]);
    });

    test("a key inserted with a grant lists it; replace gives the label full access again", async () => {
      const { store, another } = await backend.open();
      const grant = { scopes: ["relay"], channels: ["stripe", "github"] };
      expect(await store.insert("laptop", "aa".repeat(32), 1000, grant)).toBe(true);
      expect(await store.insert("laptop", "bb".repeat(32), 2000)).toBe(false);
      const other = await another();
      expect(await other.list()).toEqual([{ label: "laptop", sha256: "aa".repeat(32), createdAt: 1000, lastUsedAt: null, grant }]);
      await store.replace("laptop", "cc".repeat(32), 3000);
      const [replaced] = await other.list();
      expect(replaced!.grant).toBeUndefined();
      expect(replaced!.sha256).toBe("cc".repeat(32));
    });

    test("remove says whether there was such a key; touch keeps the latest use and ignores unknown labels", async () => {
      const { store } = await backend.open();
      await store.insert("ci", "aa".repeat(32), 1000);
      await store.touch("ci", 5000);
      await store.touch("ci", 4000); // a use noted late by another instance does not move it back
      await store.touch("nobody", 5000);
      expect((await store.list())[0]!.lastUsedAt).toBe(5000);
      expect(await store.remove("ci")).toBe(true);
      expect(await store.remove("ci")).toBe(false);
      expect(await store.list()).toEqual([]);
    });

    test("changedElsewhere resolves false when nothing changed since the last call", async () => {
      const { store } = await backend.open();
      await store.changedElsewhere();
      expect(await store.changedElsewhere()).toBe(false);
    });

    test("racing inserts of one label on two instances: exactly one stores it", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      const { values, errors } = await race(Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).insert("local@h:/d", String(i).repeat(64), i)));
      expect(errors).toEqual([]);
      expect(values.filter(Boolean)).toHaveLength(1);
      const stored = await store.list();
      expect(stored).toHaveLength(1);
      expect(stored[0]!.sha256).toBe(String(values.indexOf(true)).repeat(64));
    });

    test("racing replaces of one label on two instances: one key remains, one of theirs", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      const { errors } = await race(Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).replace("local", String(i).repeat(64), i)));
      expect(errors).toEqual([]);
      const stored = await store.list();
      expect(stored).toHaveLength(1);
      expect(Array.from({ length: 10 }, (_, i) => String(i).repeat(64))).toContain(stored[0]!.sha256);
    });
  });
}
