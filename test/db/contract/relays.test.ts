/**
 * RelayStore's contract (src/relay/store.ts) on SQLite and PostgreSQL: one listener per relay,
 * taken over by the same listener or once stale, with racing claims of two laptops.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { createRelayStore } from "../../../src/db/stores/relays";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

const who = (listener: string, instance = "i1", connectedAt = 1000) => ({
  handler: "relay:laptop:stripe",
  listener,
  host: `${listener}.local`,
  startedAt: 500,
  connectedAt,
  instance,
});

for (const backend of contractBackends(
  (db) => createRelayStore(sqliteDialect(db.$client)),
  (t) => createRelayStore(pgDialect(t)),
)) {
  describe(`relay store on ${backend.name}`, () => {
    test("the first claim holds the relay; another listener is told who holds it; the same listener takes it over, on another instance too", async () => {
      const { store, another } = await backend.open();
      expect(await store.claim(who("a"), 1000, 0)).toEqual({ claimed: true });
      const refused = await store.claim(who("b"), 1100, 0);
      expect(refused).toEqual({ claimed: false, holder: { ...who("a"), seenAt: 1000 } });
      const other = await another();
      expect(await other.claim(who("a", "i2", 1200), 1200, 0)).toEqual({ claimed: true });
      expect(await store.list()).toEqual([{ ...who("a", "i2", 1200), seenAt: 1200 }]);
      // The first instance's connection is no longer the holder: its heartbeat and release change nothing.
      expect(await store.touch("relay:laptop:stripe", "a", "i1", 1300)).toBe(false);
      await store.release("relay:laptop:stripe", "a", "i1");
      expect(await store.list()).toHaveLength(1);
      expect(await other.touch("relay:laptop:stripe", "a", "i2", 1300)).toBe(true);
      expect((await store.list())[0]!.seenAt).toBe(1300);
    });

    test("a holder not seen since staleBefore is taken over; a released relay is free", async () => {
      const { store } = await backend.open();
      await store.claim(who("a"), 1000, 0);
      expect((await store.claim(who("b"), 2000, 1000)).claimed).toBe(false);
      expect(await store.claim(who("b"), 2000, 1001)).toEqual({ claimed: true });
      await store.release("relay:laptop:stripe", "b", "i1");
      expect(await store.list()).toEqual([]);
      expect(await store.claim(who("c"), 3000, 0)).toEqual({ claimed: true });
    });

    test("taking and leaving a relay are reported to the change sink once committed; a refused claim and a heartbeat are not", async () => {
      const { store, changes } = await backend.open();
      const seen: string[] = [];
      changes.subscribe((change) => {
        if (change.kind === "state") seen.push(change.part);
      });
      await store.claim(who("a"), 1000, 0);
      expect(seen).toEqual(["relays"]);
      await store.claim(who("b"), 1100, 0);
      await store.touch("relay:laptop:stripe", "a", "i1", 1200);
      expect(seen).toEqual(["relays"]);
      await store.release("relay:laptop:stripe", "a", "i1");
      await store.release("relay:laptop:stripe", "a", "i1");
      expect(seen).toEqual(["relays", "relays"]);
    });

    test("racing claims of two listeners on two instances: exactly one holds the relay", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      const { values, errors } = await race(Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).claim(who(`l${i}`, `i${i % 2}`), 1000, 0)));
      expect(errors).toEqual([]);
      expect(values.filter((v) => v.claimed)).toHaveLength(1);
      const [held] = await store.list();
      expect(held!.listener).toBe(`l${values.findIndex((v) => v.claimed)}`);
    });
  });
}
