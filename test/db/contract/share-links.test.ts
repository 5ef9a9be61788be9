/** ShareLinkStore's contract (src/share/store.ts) on SQLite and PostgreSQL. */
import { afterEach, describe, expect, test } from "bun:test";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { createShareLinkStore } from "../../../src/db/stores/share-links";
import type { ShareLinkRow } from "../../../src/share/store";
import { closeBackends, contractBackends } from "./backends";

afterEach(closeBackends);

const link = (id: string, over: Partial<ShareLinkRow> = {}): ShareLinkRow => ({
  id,
  tokenSha256: `${id}-hash`.padEnd(64, "0"),
  kind: "hook",
  target: "01kb0000000000000000000000",
  query: null,
  channels: null,
  createdBy: "ada@example.com",
  createdAt: 1000,
  expiresAt: 5000,
  ...over,
});

for (const backend of contractBackends(
  (db) => createShareLinkStore(sqliteDialect(db.$client)),
  (t) => createShareLinkStore(pgDialect(t)),
)) {
  describe(`share link store on ${backend.name}`, () => {
    test("found by the token's hash, listed while not expired newest first, revoked, expired ones removed", async () => {
      const { store } = await backend.open();
      const view = link("sl_b", { kind: "view", target: "pending", query: "status:pending", channels: '["stripe-*"]', createdAt: 2000, expiresAt: 9000 });
      await store.insert(link("sl_a"));
      await store.insert(view);
      expect(await store.byTokenHash(view.tokenSha256)).toEqual(view);
      expect(await store.byTokenHash("nope")).toBeUndefined();
      expect((await store.list(0)).map((l) => l.id)).toEqual(["sl_b", "sl_a"]);
      expect((await store.list(5000)).map((l) => l.id)).toEqual(["sl_b"]);
      // A token hash is unique: a second link with it is refused.
      await expect(store.insert(link("sl_c", { tokenSha256: view.tokenSha256 }))).rejects.toThrow();
      expect(await store.removeExpired(5000)).toBe(1);
      expect(await store.byTokenHash(link("sl_a").tokenSha256)).toBeUndefined();
      expect(await store.remove("sl_b")).toBe(true);
      expect(await store.remove("sl_b")).toBe(false);
      expect(await store.list(0)).toEqual([]);
    });
  });
}
