/**
 * HookStore.moveMany, a bulk action's batch (bulk retry and discard), on both backends: only hooks
 * in a status it applies to move, each once, with one event, the counters right and a report
 * each; two instances moving the same hooks at once move each exactly once between them.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createPgHookStore } from "../../../src/db/pg/hook-store";
import { createHookStore } from "../../../src/db/sqlite/hook-store";
import type { Change } from "../../../src/hooks/changes";
import type { HookMove, HookStatus, HookStore, NewHook } from "../../../src/hooks/store";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

const id = (n: number) => `01jd${String(n).padStart(22, "0")}`;
const hook = (n: number, channel = "gh"): NewHook => ({
  id: id(n),
  channel,
  method: "POST",
  query: "",
  headers: "{}",
  body: new Uint8Array([n % 256]),
  ip: "127.0.0.1",
  createdAt: 1000 + n,
  eventType: "",
});
const retry = (createdAt: number): HookMove => ({
  from: ["failed", "discarded"],
  to: "pending",
  finalizedAt: null,
  event: { kind: "retried", actor: "api:ops", message: "", createdAt },
});

/** Moves each hook to its status as the service would (setStatus: counters kept right). */
async function setStatuses(store: HookStore, transaction: <T>(fn: () => Promise<T>) => Promise<T>, statuses: Map<string, HookStatus>) {
  await transaction(async () => {
    for (const [hookId, to] of statuses) {
      const h = (await store.getHook(hookId))!;
      if (to !== h.status) expect(await store.setStatus(h, to, to === "handled" || to === "discarded" ? 2000 : null)).toBe(true);
    }
  });
}

for (const backend of contractBackends((db) => createHookStore(db), createPgHookStore)) {
  describe(`bulk moves on ${backend.name}`, () => {
    test("only hooks in a status the move applies to move, once, with an event, counters and a report each", async () => {
      const b = await backend.open();
      await b.transaction(() =>
        b.store.insertHooks(
          [1, 2, 3, 4, 5, 6, 7].map((n) => hook(n, n === 7 ? "other" : "gh")),
          () => [],
        ),
      );
      const statuses: [number, HookStatus][] = [
        [1, "failed"],
        [2, "failed"],
        [3, "discarded"],
        [4, "handled"],
        [5, "pending"],
        [6, "failed"],
        [7, "failed"],
      ];
      await setStatuses(b.store, b.transaction, new Map(statuses.map(([n, s]) => [id(n), s])));
      const reported: Change[] = [];
      b.changes.subscribe((c) => void (c.kind === "hook" && reported.push(c)));

      const ids = [7, 6, 5, 4, 3, 2, 1, 99].map(id);
      // `keep` leaves hook 6 out, as a caller limited to channels leaves out what it cannot see.
      const moved = await b.transaction(() => b.store.moveMany(ids, retry(5000), (k) => k.id !== id(6)));
      expect(moved.sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([
        { id: id(1), channel: "gh", status: "failed" },
        { id: id(2), channel: "gh", status: "failed" },
        { id: id(3), channel: "gh", status: "discarded" },
        { id: id(7), channel: "other", status: "failed" },
      ]);
      const after = new Map((await b.store.getHooks([1, 2, 3, 4, 5, 6, 7].map(id))).map((h) => [h.id, h]));
      expect([1, 2, 3, 4, 5, 6, 7].map((n) => after.get(id(n))!.status)).toEqual(["pending", "pending", "pending", "handled", "pending", "failed", "pending"]);
      expect(after.get(id(3))!.finalizedAt).toBeNull();
      const events = await b.store.eventsOf([1, 2, 3, 4, 5, 6, 7].map(id));
      for (const n of [1, 2, 3, 7])
        expect(events.get(id(n))!.filter((e) => e.kind === "retried")).toEqual([
          { hookId: id(n), kind: "retried", actor: "api:ops", message: "", createdAt: 5000 },
        ]);
      for (const n of [4, 5, 6]) expect(events.get(id(n))!.filter((e) => e.kind === "retried")).toEqual([]);
      expect((await b.store.getChannel("gh"))!.stats).toEqual({ pending: 4, handled: 1, failed: 1, discarded: 0 });
      expect((await b.store.getChannel("other"))!.stats).toEqual({ pending: 1, handled: 0, failed: 0, discarded: 0 });
      expect(reported.map((c) => c.kind === "hook" && [c.id, c.status]).sort()).toEqual([1, 2, 3, 7].map((n) => [id(n), "pending"]));

      // Again: only the hook left out is still in a status retry applies to. A discard moves to discarded with its time.
      expect(await b.transaction(() => b.store.moveMany(ids, retry(6000)))).toEqual([{ id: id(6), channel: "gh", status: "failed" }]);
      expect(await b.transaction(() => b.store.moveMany(ids, retry(6000)))).toEqual([]);
      const discard: HookMove = {
        from: ["pending", "failed"],
        to: "discarded",
        finalizedAt: 7000,
        event: { kind: "discarded", actor: "u@x", message: "", createdAt: 7000 },
      };
      expect((await b.transaction(() => b.store.moveMany([id(5), id(6), id(4)], discard))).map((k) => k.id).sort()).toEqual([id(5), id(6)]);
      expect((await b.store.getHook(id(6)))!).toMatchObject({ status: "discarded", finalizedAt: 7000 });
      expect((await b.store.getChannel("gh"))!.stats).toEqual({ pending: 3, handled: 1, failed: 0, discarded: 2 });
      expect(await b.transaction(() => b.store.moveMany([], retry(8000)))).toEqual([]);
    });

    test("two instances moving the same hooks at once move each exactly once between them", async () => {
      const b = await backend.open();
      const other = await b.another();
      const all = Array.from({ length: 300 }, (_, i) => i + 1);
      await b.transaction(() =>
        b.store.insertHooks(
          all.map((n) => hook(n)),
          () => [],
        ),
      );
      await setStatuses(b.store, b.transaction, new Map(all.map((n) => [id(n), "failed" as HookStatus])));
      const ids = all.map(id);
      // Batches of 50 over the same hooks, in opposite orders, on each instance.
      const batches = (list: string[]) => Array.from({ length: list.length / 50 }, (_, i) => list.slice(i * 50, i * 50 + 50));
      const run = (store: HookStore, list: string[]) => batches(list).map((batch) => store.transaction(() => store.moveMany(batch, retry(5000))));
      const { values, errors } = await race([...run(b.store, ids), ...run(other, [...ids].reverse())]);
      expect(errors).toEqual([]);
      const moved = values.flat().map((k) => k.id);
      expect(moved.length).toBe(300);
      expect(new Set(moved).size).toBe(300);
      const events = await b.store.eventsOf(ids);
      for (const hookId of ids) expect(events.get(hookId)!.filter((e) => e.kind === "retried").length).toBe(1);
      expect((await b.store.getChannel("gh"))!.stats).toEqual({ pending: 300, handled: 0, failed: 0, discarded: 0 });
    });
  });
}
