/**
 * One contract suite for both storage backends: the hook store and the attempt queue behave the
 * same on SQLite (in memory) and on PostgreSQL (a fresh database on the test cluster).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { openDatabase } from "../../src/db/sqlite/open";
import { createHookStore } from "../../src/db/sqlite/hook-store";
import type { HookStore, NewHook, RawHook } from "../../src/hooks/store";
import { createAttemptQueue } from "../../src/db/sqlite/attempt-queue";
import type { AttemptQueue } from "../../src/runner/queue";
import { openPostgres } from "../../src/db/pg/open";
import { migratePostgres } from "../../src/db/pg/migrate";
import { pgTransactor } from "../../src/db/pg/transactor";
import { createPgHookStore } from "../../src/db/pg/hook-store";
import { createPgAttemptQueue } from "../../src/db/pg/attempt-queue";
import { freshDatabase } from "../helpers/postgres";
import { changesOf } from "../../src/db/transactor";
import type { ChangeSink } from "../../src/hooks/changes";

/** `elsewhere`: the queue as another process sharing the database sees it (SQLite has one process per data file). */
type Backend = { hooks: HookStore; queue: AttemptQueue; elsewhere: AttemptQueue; changes: ChangeSink; close(): Promise<void> };

const backends: Record<string, () => Promise<Backend>> = {
  sqlite: async () => {
    const db = openDatabase({ path: ":memory:", durability: "normal" });
    return {
      hooks: createHookStore(db),
      queue: createAttemptQueue(db),
      elsewhere: createAttemptQueue(db),
      changes: changesOf(db.$client),
      close: async () => db.$client.close(),
    };
  },
  postgres: async () => {
    const sql = await openPostgres(await freshDatabase());
    await migratePostgres(sql);
    const t = pgTransactor(sql);
    return {
      hooks: createPgHookStore(t),
      queue: createPgAttemptQueue(t, { owner: "test", leaseMs: 30_000 }),
      elsewhere: createPgAttemptQueue(t, { owner: "other", leaseMs: 30_000 }),
      changes: changesOf(sql),
      close: () => sql.close(),
    };
  },
};

const open: Backend[] = [];
afterAll(async () => {
  for (const b of open) await b.close();
});

let seq = 0;
function hook(channel: string, at: number, body: Uint8Array = new Uint8Array([1, 2, 3])): NewHook {
  seq++;
  return {
    id: `01jz${String(at).padStart(10, "0")}${String(seq).padStart(12, "0")}`,
    channel,
    method: "POST",
    eventType: "",
    query: "a=1&b=2",
    headers: '{"z-last":"1","a-first":"2"}',
    body,
    ip: "10.0.0.1",
    createdAt: at,
  };
}

for (const [name, make] of Object.entries(backends)) {
  describe(`storage contract on ${name}`, () => {
    const start = async () => {
      const b = await make();
      open.push(b);
      return b;
    };

    test("a caught hook keeps whether a guard authenticated its sender: true, false, or unknown (null)", async () => {
      const { hooks } = await start();
      const batch = [{ ...hook("v", 1000), verified: true }, { ...hook("v", 1001), verified: false }, hook("v", 1002)];
      await hooks.caughtTransaction(() => hooks.insertHooks(batch, () => []));
      const got = await Promise.all(batch.map(async (h) => (await hooks.getHook(h.id))!.verified));
      expect(got).toEqual([true, false, null]);
      expect((await hooks.getHookSummary(batch[0]!.id))!.verified).toBe(true);
    });

    test("caught hooks keep their exact bytes and header order; counters move once per batch", async () => {
      const { hooks } = await start();
      const every = new Uint8Array(256).map((_, i) => i);
      const batch = [hook("gh", 1000, every), hook("gh", 1001), hook("shop", 1002, new Uint8Array())];
      await hooks.caughtTransaction(() => hooks.insertHooks(batch, () => ["sig"]));
      const got = (await hooks.getHook(batch[0]!.id))!;
      expect([...got.body]).toEqual([...every]);
      expect([...(await hooks.getHook(batch[1]!.id))!.body]).toEqual([1, 2, 3]);
      expect((await hooks.getHook(batch[2]!.id))!.body.byteLength).toBe(0);
      expect(Object.keys(got.headers)).toEqual(["z-last", "a-first"]);
      expect(got).toMatchObject({ channel: "gh", status: "pending", method: "POST", query: "a=1&b=2", ip: "10.0.0.1", createdAt: 1000, finalizedAt: null });
      expect(await hooks.getHook("nope")).toBeUndefined();
      // A summary: the hook without its body, with the body's size in bytes (a live list's read).
      const summary = (await hooks.getHookSummary(batch[0]!.id))!;
      expect(summary).toMatchObject({
        id: batch[0]!.id,
        channel: "gh",
        status: "pending",
        method: "POST",
        query: "a=1&b=2",
        ip: "10.0.0.1",
        createdAt: 1000,
        finalizedAt: null,
        size: 256,
      });
      expect("body" in summary).toBe(false);
      expect(summary.headers).toEqual(got.headers);
      expect((await hooks.getHookSummary(batch[2]!.id))!.size).toBe(0);
      expect(await hooks.getHookSummary("nope")).toBeUndefined();
      expect((await hooks.getChannel("gh"))!).toEqual({
        name: "gh",
        paused: false,
        guards: ["sig"],
        stats: { pending: 2, handled: 0, failed: 0, discarded: 0 },
      });
      expect((await hooks.listChannels()).map((c) => c.name)).toEqual(["gh", "shop"]);
    });

    test("status changes move the counters; lists filter and page newest first", async () => {
      const { hooks } = await start();
      const batch = Array.from({ length: 9 }, (_, i) => hook(i % 3 === 0 ? "a" : "b", 2000 + i));
      await hooks.transaction(() => hooks.insertHooks(batch, () => []));
      const first = (await hooks.getHook(batch[0]!.id))!;
      await hooks.transaction(async () => {
        await hooks.setStatus(first, "failed", null);
        await hooks.addEvent({ hookId: first.id, kind: "failed", actor: "h", message: "boom", createdAt: 5 });
      });
      expect((await hooks.getChannel("a"))!.stats).toEqual({ pending: 2, handled: 0, failed: 1, discarded: 0 });
      expect((await hooks.eventsOf([first.id, "none"])).get(first.id)).toEqual([
        { hookId: first.id, kind: "failed", actor: "h", message: "boom", createdAt: 5 },
      ]);
      const ids = batch.map((h) => h.id).reverse();
      expect(await hooks.listHookIds({ limit: 4 })).toEqual(ids.slice(0, 4));
      expect(await hooks.listHookIds({ limit: 4, after: ids[3] })).toEqual(ids.slice(4, 8));
      expect(await hooks.listHookIds({ channel: "a", limit: 10 })).toEqual(ids.filter((id) => batch.find((h) => h.id === id)!.channel === "a"));
      expect(await hooks.listHookIds({ status: "failed", limit: 10 })).toEqual([first.id]);
      expect(await hooks.listHookIds({ channel: "b", status: "failed", limit: 10 })).toEqual([]);
      expect((await hooks.listHooks({ channel: "a", limit: 2 })).map((h) => h.id)).toEqual(
        ids.filter((id) => batch.find((h) => h.id === id)!.channel === "a").slice(0, 2),
      );
      expect((await hooks.oldestKeys("b", 2)).map((k) => k.id)).toEqual(
        batch
          .filter((h) => h.channel === "b")
          .slice(0, 2)
          .map((h) => h.id),
      );
      expect(await hooks.newestId("a")).toBe(batch[6]!.id);
      expect(await hooks.overfull(5)).toEqual([{ name: "b", over: 1 }]);
    });

    test("event types are stored and filter every kind of list, exactly or by a prefix (characters, not bytes)", async () => {
      const { hooks } = await start();
      const types = ["charge.failed", "charge.succeeded", "", "chargé.x", "customer.created", "charge.failed"];
      const batch = types.map((eventType, i) => ({ ...hook(i % 2 ? "a" : "b", 3000 + i), eventType }));
      await hooks.transaction(() => hooks.insertHooks(batch, () => []));
      expect((await hooks.getHook(batch[3]!.id))!.eventType).toBe("chargé.x");
      expect((await hooks.getHookSummary(batch[4]!.id))!.eventType).toBe("customer.created");
      const idsOf = (pred: (h: NewHook) => boolean) =>
        batch
          .filter(pred)
          .map((h) => h.id)
          .reverse();
      expect(await hooks.listHookIds({ eventType: "charge.failed", limit: 10 })).toEqual(idsOf((h) => h.eventType === "charge.failed"));
      expect(await hooks.listHookIds({ eventType: "charge.*", limit: 10 })).toEqual(idsOf((h) => h.eventType.startsWith("charge.")));
      expect(await hooks.listHookIds({ eventType: "chargé*", limit: 10 })).toEqual([batch[3]!.id]);
      expect(await hooks.listHookIds({ channel: "b", eventType: "charge.*", limit: 10 })).toEqual(
        idsOf((h) => h.channel === "b" && h.eventType.startsWith("charge.")),
      );
      expect(await hooks.listHookIds({ status: "pending", eventType: "customer.created", limit: 10 })).toEqual([batch[4]!.id]);
      expect(await hooks.listHookIds({ channel: "a", status: "pending", eventType: "charge.succeeded", limit: 10 })).toEqual([batch[1]!.id]);
      expect(await hooks.listHookIds({ eventType: "charge.*", limit: 1, after: batch[5]!.id })).toEqual([batch[1]!.id]);
    });

    test("deleting hooks takes them off the counters by their status; a channel goes with its hooks", async () => {
      const { hooks } = await start();
      const batch = [hook("c", 3000), hook("c", 3001), hook("c", 3002)];
      await hooks.transaction(() => hooks.insertHooks(batch, () => []));
      const h0 = (await hooks.getHook(batch[0]!.id))!;
      await hooks.transaction(() => hooks.setStatus(h0, "handled", 9));
      expect(await hooks.transaction(async () => hooks.deleteHooks(await hooks.keysBelow(batch[2]!.id, 10)))).toBe(2);
      expect((await hooks.getChannel("c"))!.stats).toEqual({ pending: 1, handled: 0, failed: 0, discarded: 0 });
      expect(await hooks.setPaused("c", true)).toBe(true);
      expect(await hooks.setPaused("nope", true)).toBe(false);
      expect((await hooks.getChannel("c"))!.paused).toBe(true);
      expect(await hooks.transaction(() => hooks.deleteChannel("c"))).toBe(true);
      expect(await hooks.getChannel("c")).toBeUndefined();
      expect(await hooks.getHook(batch[2]!.id)).toBeUndefined();
    });

    test("a transaction that throws commits nothing; a nested one that throws rolls back only itself", async () => {
      const { hooks } = await start();
      const a = hook("t", 4000);
      await expect(
        hooks.transaction(async () => {
          await hooks.insertHooks([a], () => []);
          throw new Error("no");
        }),
      ).rejects.toThrow("no");
      expect(await hooks.getHook(a.id)).toBeUndefined();
      const b = hook("t", 4001);
      await hooks.transaction(async () => {
        await hooks.insertHooks([b], () => []);
        await hooks.transaction(() => hooks.upsertChannel("other", [], 1).then(() => Promise.reject(new Error("inner")))).catch(() => {});
      });
      expect(await hooks.getHook(b.id)).toBeDefined();
      expect(await hooks.getChannel("other")).toBeUndefined();
    });

    /** Every channel's counters equal the hooks it stores, by status (read from the rows themselves). */
    async function countersMatchRows(hooks: HookStore, channel: string) {
      const stored = { pending: 0, handled: 0, failed: 0, discarded: 0 };
      for (const h of await hooks.listHooks({ channel, limit: 1000 })) stored[h.status]++;
      expect((await hooks.getChannel(channel))?.stats ?? stored).toEqual(stored);
    }

    test("two transitions of one hook at once: exactly one wins, the other changes nothing; counters equal the stored hooks", async () => {
      const { hooks } = await start();
      const batch = Array.from({ length: 20 }, (_, i) => hook("race", 6000 + i));
      await hooks.transaction(() => hooks.insertHooks(batch, () => []));
      const events: string[] = [];
      const race = (id: string, to: "discarded" | "handled") =>
        hooks.transaction(async () => {
          const h = (await hooks.getHook(id))!;
          if (h.status !== "pending") return false;
          const won = await hooks.setStatus(h, to, 1);
          if (won) await hooks.addEvent({ hookId: id, kind: to, actor: "t", message: "", createdAt: 1 }), events.push(id);
          return won;
        });
      for (const h of batch) {
        const results = await Promise.all([race(h.id, "discarded"), race(h.id, "handled")]);
        expect(results.filter(Boolean)).toHaveLength(1);
      }
      expect(events).toHaveLength(batch.length);
      for (const [id, list] of await hooks.eventsOf(batch.map((h) => h.id))) expect([id, list.length]).toEqual([id, 1]);
      await countersMatchRows(hooks, "race");
    });

    test("a delete racing a transition: the hook goes once, whichever comes first; counters equal the stored hooks", async () => {
      const { hooks } = await start();
      const batch = Array.from({ length: 20 }, (_, i) => hook("dr", 7000 + i));
      await hooks.transaction(() => hooks.insertHooks(batch, () => []));
      for (const h of batch) {
        // Each reads the hook in its own transaction (it may be gone by then), then writes.
        const read = async <T>(fn: (now: RawHook) => Promise<T>) =>
          hooks.transaction(async () => {
            const now = await hooks.getHook(h.id);
            return now ? fn(now) : false;
          });
        const [moved, deleted, again] = await Promise.all([
          read((now) => hooks.setStatus(now, "failed", null)),
          read((now) => hooks.deleteHook(now)),
          read((now) => hooks.deleteHook(now)),
        ]);
        expect(typeof moved).toBe("boolean");
        expect([deleted, again].filter(Boolean)).toHaveLength(1);
        expect(await hooks.getHook(h.id)).toBeUndefined();
      }
      await countersMatchRows(hooks, "dr");
      expect(await hooks.transaction(() => hooks.deleteHooks(batch.map((h) => ({ id: h.id, channel: "dr", status: "pending" as const }))))).toBe(0);
      await countersMatchRows(hooks, "dr");
    });

    test("changes are reported once committed, in order, and not at all when rolled back", async () => {
      const b = await start();
      const { hooks } = b;
      const seen: string[] = [];
      b.changes.subscribe((c) =>
        seen.push(c.kind === "hook" ? `hook ${c.status ?? (c.deleted ? "deleted" : "")}` : c.kind === "channel" ? `channel ${c.name}` : c.kind),
      );
      const [h1, h2] = [hook("rep", 8000), hook("rep", 8001)];
      await hooks.transaction(() => hooks.insertHooks([h1!, h2!], () => []));
      expect(seen).toEqual([]); // caught hooks are reported by the writer, once durable
      await hooks.transaction(async () => {
        await hooks.setStatus((await hooks.getHook(h1!.id))!, "handled", 1);
        expect(seen).toEqual([]); // not before the commit
      });
      expect(seen).toEqual(["hook handled"]);
      await hooks
        .transaction(async () => {
          await hooks.setStatus((await hooks.getHook(h2!.id))!, "failed", null);
          throw new Error("rolled back");
        })
        .catch(() => {});
      await hooks.transaction(async () => {
        await hooks.transaction(() => hooks.setPaused("rep", true).then(() => Promise.reject(new Error("inner")))).catch(() => {});
        await hooks.deleteHook((await hooks.getHook(h2!.id))!);
      });
      expect(seen).toEqual(["hook handled", "hook deleted"]);
      expect(await hooks.setPaused("rep", true)).toBe(true);
      expect(seen).toEqual(["hook handled", "hook deleted", "channel rep"]);
    });

    test("retractCaught takes back hooks of a caught batch: rows, attempts and counters go, nothing is reported", async () => {
      const b = await start();
      const { hooks, queue } = b;
      const seen: string[] = [];
      b.changes.subscribe((c) => seen.push(c.kind));
      const batch = [hook("back", 9000), hook("back", 9001), hook("back", 9002)];
      await hooks.caughtTransaction(async () => {
        await hooks.insertHooks(batch, () => []);
        for (const h of batch) await queue.queueRound(h.id, "fwd", 0, 10);
      });
      await hooks.transaction(() => hooks.retractCaught([batch[0]!.id, batch[2]!.id, "gone-already"]));
      expect(seen).toEqual([]);
      expect(await hooks.getHooks(batch.map((h) => h.id))).toEqual([expect.objectContaining({ id: batch[1]!.id })]);
      expect((await hooks.getChannel("back"))!.stats).toEqual({ pending: 1, handled: 0, failed: 0, discarded: 0 });
      expect((await queue.latestOf(batch.map((h) => h.id))).map((a) => a.hookId)).toEqual([batch[1]!.id]);
    });

    test("the queue: claims respect the concurrency limit; finish records once; interrupted ones come back", async () => {
      const { hooks, queue } = await start();
      const batch = [hook("q", 5000), hook("q", 5001), hook("q", 5002)];
      await hooks.transaction(async () => {
        await hooks.insertHooks(batch, () => []);
        for (const h of batch) await queue.queueRound(h.id, "fwd", 0, 10);
      });
      expect(await queue.depth()).toBe(3);
      expect(await queue.nextDue()).toEqual(new Map([["fwd", 10]]));
      expect(await queue.claimDue("fwd", 5, 10, 2)).toEqual([]); // not due yet
      const claimed = await queue.claimDue("fwd", 20, 10, 2);
      expect(claimed.map((r) => r.hookId)).toEqual([batch[0]!.id, batch[1]!.id]);
      expect(await queue.claimDue("fwd", 20, 10, 2)).toEqual([]); // two run: the limit is reached
      const result = { ok: true, excerpt: "ok", error: "", httpStatus: 200 };
      expect(await queue.transaction(() => queue.finish(claimed[0]!.id, "succeeded", result, 30))).toBe(true);
      expect(await queue.transaction(() => queue.finish(claimed[0]!.id, "succeeded", result, 31))).toBe(false);
      expect((await queue.list(batch[0]!.id)).map((a) => [a.outcome, a.httpStatus, a.excerpt])).toEqual([["succeeded", 200, "ok"]]);
      expect((await queue.latest(batch[0]!.id)).map((a) => a.attempt)).toEqual([1]);
      // A batch's latest attempts in one read: each handler's last of each hook, none of a hook gone.
      await queue.transaction(() => queue.queueNext(claimed[0]!, 50));
      const latest = await queue.latestOf([batch[0]!.id, batch[1]!.id, "no-such-hook"]);
      expect(latest.map((a) => [a.hookId, a.attempt, a.outcome]).sort()).toEqual([
        [batch[0]!.id, 2, "queued"],
        [batch[1]!.id, 1, "running"],
      ]);
      expect(await queue.latestOf([])).toEqual([]);
      expect((await hooks.getHooks([batch[2]!.id, batch[0]!.id, "no-such-hook"])).map((h) => h.id).sort()).toEqual([batch[0]!.id, batch[2]!.id].sort());
      expect(await queue.requeueInterrupted(Number.MAX_SAFE_INTEGER)).toBe(1); // the other claim's holder is gone
      expect(await queue.depth()).toBe(3);
      await queue.transaction(() => queue.cancel(batch[2]!.id, 40));
      expect((await queue.list(batch[2]!.id)).map((a) => a.outcome)).toEqual(["cancelled"]);
    });

    test("a handler attached on two instances at once queues one first attempt per pending hook, not two", async () => {
      const { hooks, queue, elsewhere } = await start();
      for (let round = 0; round < 5; round++) {
        const channel = `attach${round}`;
        const batch = Array.from({ length: 200 }, (_, i) => hook(channel, 7000 + i));
        await hooks.transaction(() => hooks.insertHooks(batch, () => []));
        const counts = await Promise.all([queue.queueUnattempted(channel, "relay:laptop:a", 10), elsewhere.queueUnattempted(channel, "relay:laptop:a", 10)]);
        expect(counts[0] + counts[1]).toBe(200);
        for (const h of [batch[0]!, batch[199]!]) expect((await queue.list(h.id)).map((a) => [a.handler, a.attempt])).toEqual([["relay:laptop:a", 1]]);
        expect(await queue.backlog("relay:laptop:a")).toMatchObject({ count: 200 * (round + 1) });
      }
    });

    test("a relay's waiting attempts end with the reason, queued and running alike, in batches; running ones claimed elsewhere are taken over", async () => {
      const { hooks, queue, elsewhere } = await start();
      const batch = [hook("rq", 6000), hook("rq", 6001), hook("rq", 6002)];
      await hooks.transaction(async () => {
        await hooks.insertHooks(batch, () => []);
        for (const h of batch) await queue.queueRound(h.id, "relay:laptop:rq", 0, 10), await queue.queueRound(h.id, "app", 0, 10);
      });
      // Claimed by another instance: taken over where the queue has several (PostgreSQL), left alone on SQLite's one process.
      const [claimed] = await elsewhere.claimDue("relay:laptop:rq", 20, 1, 256);
      expect(await queue.takeOver("relay:laptop:rq")).toBe(name === "postgres" ? 1 : 0);
      expect(await elsewhere.takeOver("relay:laptop:rq")).toBe(0); // nothing runs elsewhere than "elsewhere" now
      expect((await queue.list(claimed!.hookId)).find((a) => a.handler === "relay:laptop:rq")!.outcome).toBe(name === "postgres" ? "queued" : "running");
      const first = await queue.transaction(() => queue.endHandler("relay:laptop:rq", 'relay key "laptop" was revoked', 30, 2));
      const rest = await queue.transaction(() => queue.endHandler("relay:laptop:rq", 'relay key "laptop" was revoked', 30, 2));
      expect([...first, ...rest].sort()).toEqual(batch.map((h) => h.id).sort());
      expect(rest).toHaveLength(1);
      for (const h of batch) {
        const [relay, app] = [
          (await queue.list(h.id)).find((a) => a.handler.startsWith("relay:"))!,
          (await queue.list(h.id)).find((a) => a.handler === "app")!,
        ];
        expect([relay.outcome, relay.error, relay.finishedAt, app.outcome]).toEqual(["cancelled", 'relay key "laptop" was revoked', 30, "queued"]);
      }
      expect(await queue.transaction(() => queue.endHandler("relay:laptop:rq", "again", 40, 2))).toEqual([]);
    });
  });
}
