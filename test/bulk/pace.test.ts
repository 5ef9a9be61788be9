import { expect, test } from "bun:test";
import { BULK_BATCH, BULK_BUSY_RATE, BULK_HOOK_WEIGHT, BULK_BUSY_SHARE, BULK_SHARE, bulkRest, createBulk } from "../../src/bulk/service";
import { openDatabase } from "../../src/db/sqlite/open";
import { createSqliteStorage } from "../../src/db/sqlite/storage";
import { createHookService } from "../../src/hooks/service";
import { createBulkJobStore } from "../../src/db/stores/bulk-jobs";
import { sqliteDialect } from "../../src/db/stores/dialect";
import { systemClock } from "../../src/lib/clock";
import { createIdFactory } from "../../src/lib/ids";
import { silentLog } from "../../src/lib/log";
import { MAX_REST_MS } from "../../src/lib/pace";
import { createTestApp } from "../helpers/app";
import { importHooks, settled } from "./support";

const pace = (busy: boolean) => ({ share: BULK_SHARE, busy, busyRate: BULK_BUSY_RATE });

test("with nothing being caught, a job rests as long as its batch took of the thread's CPU time", () => {
  expect(bulkRest({ hooks: 200, wallMs: 12, cpuMs: 10 }, pace(false))).toBeCloseTo(10 * ((1 - BULK_SHARE) / BULK_SHARE));
  // What the batch waited for (PostgreSQL's answers, a WAL's sync) is not the thread's.
  expect(bulkRest({ hooks: 200, wallMs: 40, cpuMs: 2 }, pace(false))).toBeCloseTo(2 * ((1 - BULK_SHARE) / BULK_SHARE));
  // No rate ceiling then: a fast batch rests only its share.
  expect(bulkRest({ hooks: 200, wallMs: 1, cpuMs: 1 }, pace(false))).toBeLessThan(5);
});

test("while hooks are caught, a job takes at most its busy share of the thread and BULK_BUSY_RATE hooks a second", () => {
  // A cheap batch: the rate decides (200 hooks, then a rest until 200 / rate seconds have passed).
  const cheap = bulkRest({ hooks: 200, wallMs: 12, cpuMs: 4 }, pace(true));
  expect(cheap).toBeCloseTo((200 * 1000) / BULK_BUSY_RATE - 12);
  expect(12 + cheap).toBeCloseTo((200 * 1000) / BULK_BUSY_RATE);
  // A batch that started late by the ceiling's schedule (its timer fired late) rests that much less.
  expect(bulkRest({ hooks: 200, wallMs: 12, cpuMs: 4, lateMs: 3 }, pace(true))).toBeCloseTo(cheap - 3);
  // A costly one: its share decides.
  expect(bulkRest({ hooks: 200, wallMs: 30, cpuMs: 25 }, pace(true))).toBeCloseTo(25 * ((1 - BULK_BUSY_SHARE) / BULK_BUSY_SHARE));
  // A batch slower than the ceiling on the clock rests for its share only.
  expect(bulkRest({ hooks: 200, wallMs: 60, cpuMs: 1 }, pace(true))).toBeCloseTo(1 * ((1 - BULK_BUSY_SHARE) / BULK_BUSY_SHARE));
});

test("a batch measured across a stall rests MAX_REST_MS at most for its share", () => {
  expect(bulkRest({ hooks: 200, wallMs: 5000, cpuMs: 5000 }, pace(true))).toBe(MAX_REST_MS);
  expect(bulkRest({ hooks: 200, wallMs: 1, cpuMs: 1 }, { share: 1, busy: false, busyRate: BULK_BUSY_RATE })).toBe(0);
});

test("a job's batches are counted as the serving thread's work for the background threads' flood watch: every hook it acted on, a batch at a time, at a caught hook's weight", async () => {
  const t = createTestApp();
  const server = t.listen();
  try {
    const ids = await importHooks({ ...t, url: server.url }, "counted", 450);
    const counted: number[] = [];
    const busy = t.search.busy;
    t.search.busy = (hooks: number) => (counted.push(hooks), busy(hooks));
    const started = await t.call("POST", "/v1/hooks/bulk", { query: "channel:counted", action: "retry" });
    expect(started.status).toBe(200);
    expect(await settled(t, started.json.id)).toMatchObject({ state: "done", done: ids.length });
    expect(counted).toEqual([BULK_BATCH, BULK_BATCH, 450 - 2 * BULK_BATCH].map((n) => Math.ceil(n * BULK_HOOK_WEIGHT)));
  } finally {
    server.stop();
    t.close();
  }
});

test.skipIf(typeof process.threadCpuUsage !== "function")(
  "a batch's CPU time ends at its commit: what the thread does while the batch waits for the disk (catching, there) does not lengthen the job's rest",
  async () => {
    const db = openDatabase({ path: ":memory:", durability: "normal" });
    const nextId = createIdFactory(systemClock);
    const ids = Array.from({ length: 3 * BULK_BATCH }, () => nextId())
      .sort()
      .reverse();
    const cpu = () => {
      const c = process.threadCpuUsage();
      return (c.user + c.system) / 1000;
    };
    // The hooks' side of a retry: the batch's transaction (its progress in it), its commit, then a wait
    // for the disk during which the thread does 20 ms of other work.
    const hooks = {
      listIds: async (q: { after?: string; limit: number }) => ids.filter((id) => q.after === undefined || id < q.after).slice(0, q.limit),
      async bulk(_action: string, batch: readonly string[], _actor: string, within?: (n: number) => Promise<unknown>, committed?: () => void) {
        await within?.(batch.length);
        committed?.();
        for (const end = cpu() + 20; cpu() < end; );
        return batch.map((id) => ({ id, channel: "c" }));
      },
    };
    const measured: { wallMs: number; cpuMs: number; restMs: number }[] = [];
    const bulk = createBulk({
      store: createBulkJobStore(sqliteDialect(db.$client)),
      hooks: hooks as never,
      search: { read: () => async () => [] } as never,
      clock: systemClock,
      log: silentLog,
      nextId,
      outbound: { allowLinkLocal: false, now: () => Date.now() },
      tags: {} as never,
      reads: {} as never,
      busy: () => true,
      busyRate: 1e9,
      paced: (m) => void measured.push(m),
    });
    const job = await bulk.start("retry", "channel:c", {}, "tests");
    await bulk.idle();
    expect((await bulk.get(job.id)).done).toBe(ids.length);
    expect(measured.length).toBe(3);
    for (const m of measured) {
      expect(m.wallMs).toBeGreaterThan(15);
      // Its own CPU time (the transaction) is small; counted to the end, it would be 20 ms more, and its rest four times that.
      expect(m.cpuMs).toBeLessThan(10);
      expect(m.restMs).toBeLessThan(40);
    }
    db.$client.close();
  },
);

test("the hooks' side of a batch tells it committed before it waits for the disk: on a discard, when no hook moved, and never when it rolled back", async () => {
  const db = openDatabase({ path: ":memory:", durability: "normal" });
  const storage = createSqliteStorage(db, { path: ":memory:", durability: "normal" });
  const order: string[] = [];
  const runner = { queueRetries: async () => {}, cancel: async () => {}, notify: () => {}, hasHandlers: () => false };
  const service = createHookService({
    store: storage.hooks,
    clock: systemClock,
    runner: runner as never,
    durable: async () => void order.push("durable"),
  });
  const ids = Array.from({ length: 3 }, () => createIdFactory(systemClock)());
  const now = Date.now();
  await storage.hooks.insertHooks(
    ids.map((id) => ({ id, channel: "c", method: "POST", query: "", headers: "{}", body: Buffer.from("{}"), ip: "127.0.0.1", createdAt: now, eventType: "" })),
    () => [],
  );
  const committed = () => void order.push("committed");
  expect(await service.bulk("discard", ids, "tests", undefined, committed)).toHaveLength(3);
  expect(order).toEqual(["committed", "durable"]);
  // Discarded already: nothing moves, nothing waits for the disk, the commit is told all the same.
  order.length = 0;
  expect(await service.bulk("discard", ids, "tests", undefined, committed)).toHaveLength(0);
  expect(order).toEqual(["committed"]);
  // A batch that fails in its transaction rolls back: not told committed.
  order.length = 0;
  const failing = async () => {
    throw new Error("no");
  };
  await expect(service.bulk("retry", ids, "tests", failing, committed)).rejects.toThrow("no");
  expect(order).toEqual([]);
  expect((await storage.hooks.getHook(ids[0]!))?.status).toBe("discarded");
  await storage.close();
});
