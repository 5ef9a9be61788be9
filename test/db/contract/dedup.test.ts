/**
 * DedupStore's contract (src/dedup/store.ts) on SQLite and PostgreSQL: what each method
 * returns, and claims of one delivery id racing, on one instance and on two.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { pgDeliveryIds } from "../../../src/db/pg/dedup-deliveries";
import { sqliteDeliveryIds } from "../../../src/db/sqlite/dedup-deliveries";
import { createDedupStore } from "../../../src/db/stores/dedup";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import type { DedupStore } from "../../../src/dedup/store";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

const HOUR = 3_600_000;
const T = 1_000 * HOUR;
const STALE = 30_000;
const claimAt = (store: DedupStore, token: string, at = T, id = "github:d1", channel = "gh") =>
  store.claim({ channel, deliveryId: id, hookId: token, createdAt: at }, at - HOUR, at - STALE);
const row = (hookId: string, at = T, deliveryId = "github:d1", channel = "gh") => ({ channel, deliveryId, hookId, createdAt: at });

for (const backend of contractBackends(
  (db) => createDedupStore(sqliteDialect(db.$client), sqliteDeliveryIds(db.$client)),
  (t) => createDedupStore(pgDialect(t), pgDeliveryIds(t)),
)) {
  describe(`dedup store on ${backend.name}`, () => {
    test("claim: the first caller claims; others see it pending; once recorded and committed, everyone gets the hook's id", async () => {
      const { store, transaction } = await backend.open();
      expect(await claimAt(store, "tok-a")).toEqual({ claimed: true });
      expect(await claimAt(store, "tok-b", T + 1)).toEqual({ pending: true });
      await transaction(() => store.record([row("01hook", T)]));
      expect(await store.release("gh", "github:d1", "tok-a", true)).toBe(true);
      expect(await claimAt(store, "tok-c", T + 2)).toEqual({ hookId: "01hook" });
      // Other ids and other channels are apart.
      expect(await claimAt(store, "tok-d", T, "github:d2")).toEqual({ claimed: true });
      expect(await claimAt(store, "tok-e", T, "github:d1", "other")).toEqual({ claimed: true });
    });

    test("release of a claim whose hook was not stored frees the id; a wrong token changes nothing", async () => {
      const { store } = await backend.open();
      expect(await claimAt(store, "tok-a")).toEqual({ claimed: true });
      expect(await store.release("gh", "github:d1", "tok-other", false)).toBe(false);
      expect(await claimAt(store, "tok-b", T + 1)).toEqual({ pending: true });
      expect(await store.release("gh", "github:d1", "tok-a", false)).toBe(true);
      expect(await store.release("gh", "github:d1", "tok-a", false)).toBe(false);
      expect(await claimAt(store, "tok-b", T + 2)).toEqual({ claimed: true });
    });

    test("a hook stored before the window, and a claim gone stale, are taken over", async () => {
      const { store, transaction } = await backend.open();
      await transaction(() => store.record([row("01old", T - 2 * HOUR)]));
      expect(await claimAt(store, "tok-a")).toEqual({ claimed: true });
      // tok-a's instance died: after the stale time a copy claims the id itself.
      expect(await claimAt(store, "tok-b", T + STALE - 1)).toEqual({ pending: true });
      expect(await claimAt(store, "tok-b", T + STALE + 1)).toEqual({ claimed: true });
      expect(await store.release("gh", "github:d1", "tok-a", false)).toBe(false);
      await transaction(() => store.record([row("01new", T + STALE + 1)]));
      await store.release("gh", "github:d1", "tok-b", true);
      expect(await claimAt(store, "tok-c", T + STALE + 2)).toEqual({ hookId: "01new" });
    });

    test("record: a repeat within a batch keeps the last; a rolled-back batch remembers nothing", async () => {
      const { store, transaction } = await backend.open();
      await transaction(() => store.record([row("01a", T, "x"), row("01b", T, "x"), row("01c", T, "y")]));
      expect(await claimAt(store, "t1", T, "x")).toEqual({ hookId: "01b" });
      expect(await claimAt(store, "t2", T, "y")).toEqual({ hookId: "01c" });
      await expect(
        transaction(async () => {
          await store.record([row("01z", T, "z")]);
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await claimAt(store, "t3", T, "z")).toEqual({ claimed: true });
      expect(await store.channels()).toEqual(["gh"]);
    });

    test("50 copies claiming one delivery id at once, on two instances: exactly one claims, the rest wait", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      const { values, errors } = await race(Array.from({ length: 50 }, (_, i) => claimAt(i % 2 ? store : other, `tok-${i}`, T + i)));
      expect(errors).toEqual([]);
      expect(values.filter((v) => "claimed" in v)).toHaveLength(1);
      expect(values.filter((v) => "pending" in v)).toHaveLength(49);
    });

    test("countDrop, stats and droppedCounts count repeats per channel; forget removes ids, claims and count", async () => {
      const { store, another, transaction } = await backend.open();
      expect(await store.stats("gh")).toBeUndefined();
      expect(await store.droppedCounts()).toEqual(new Map());
      const other = await another();
      const { values } = await race(Array.from({ length: 20 }, (_, i) => (i % 2 ? store : other).countDrop("gh", T + i)));
      expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(await store.countDrop("shop", T)).toBe(1);
      expect((await store.stats("gh"))!.dropped).toBe(20);
      expect(await store.droppedCounts()).toEqual(
        new Map([
          ["gh", 20],
          ["shop", 1],
        ]),
      );
      await transaction(() => store.record([row("01a")]));
      expect(await claimAt(store, "tok", T, "github:d2")).toEqual({ claimed: true });
      await store.forget("gh");
      await store.forget("never-had-any");
      expect(await store.stats("gh")).toBeUndefined();
      expect(await store.channels()).toEqual([]);
      expect(await claimAt(store, "tok-2", T)).toEqual({ claimed: true });
      expect(await claimAt(store, "tok-3", T, "github:d2")).toEqual({ claimed: true });
    });

    test("sweep deletes at most `limit` ids older than `before` and says how many", async () => {
      const { store, transaction, query } = await backend.open();
      await transaction(() => store.record(Array.from({ length: 5 }, (_, i) => row(`01h${i}`, T + i, `d${i}`))));
      expect(await store.sweep("gh", T + 3, 2)).toBe(2);
      expect(await store.sweep("gh", T + 3, 2)).toBe(1);
      expect(await store.sweep("gh", T + 3, 2)).toBe(0);
      expect(await store.sweep("other", T + 10, 10)).toBe(0);
      expect(Number((await query("SELECT count(*) AS n FROM deliveries"))[0]!.n)).toBe(2);
      // A committed id swept is free to claim again.
      expect(await claimAt(store, "tok", T, "d0")).toEqual({ claimed: true });
    });
  });
}
