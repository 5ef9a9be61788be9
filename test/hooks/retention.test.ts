import { expect, test } from "bun:test";
import { silentLog } from "../../src/lib/log";
import { createRetention, RETENTION_CHECK_MS } from "../../src/hooks/retention";
import { createTestApp, type TestApp } from "../helpers/app";

/** Every stored hook id of a channel, newest first, by paging. */
async function storedIds(t: TestApp, channel: string): Promise<string[]> {
  const ids: string[] = [];
  for (let after = ""; ; ) {
    const page = (await t.call("GET", `/v1/hooks?channel=${channel}&limit=100${after}`)).json as { id: string; status: string }[];
    ids.push(...page.map((h) => h.id));
    if (page.length < 100) return ids;
    after = `&after=${page.at(-1)!.id}`;
  }
}

/** The channel's stats must equal the counts of its stored hooks. */
async function expectStatsRight(t: TestApp, channel: string): Promise<Record<string, string>> {
  const counts: Record<string, number> = { pending: 0, handled: 0, failed: 0, discarded: 0 };
  for (const status of Object.keys(counts)) {
    counts[status] = ((await t.call("GET", `/v1/hooks?channel=${channel}&status=${status}&limit=100`)).json as unknown[]).length;
  }
  const stats = (await t.call("GET", `/v1/channels/${channel}`)).json.stats;
  expect(stats).toEqual(Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, String(v)])));
  return stats;
}

test("hooks older than the retention are deleted with their events; newer ones and the stats stay right", async () => {
  const t = createTestApp({ hooks: { retention: "1h" } });
  const old = await t.catchHooks("shop", 3);
  expect((await t.call("POST", `/v1/hooks/${old[0]}/discard`)).status).toBe(200);
  expect((await t.call("POST", `/v1/hooks/${old[1]}/process`)).status).toBe(200);
  t.clock.advance(30 * 60_000);
  const recent = [...(await t.catchHooks("shop", 2)), ...(await t.catchHooks("other", 1))];
  await t.runner.tick();
  expect((await storedIds(t, "shop")).length).toBe(5); // nothing is an hour old yet

  t.clock.advance(30 * 60_000 + 1);
  await t.runner.tick();
  expect(await storedIds(t, "shop")).toEqual(recent.slice(0, 2).reverse());
  expect(await storedIds(t, "other")).toEqual([recent[2]!]);
  expect((await t.call("GET", `/v1/hooks/${old[0]}`)).status).toBe(404);
  expect(t.db.$client.query("SELECT count(*) AS n FROM events WHERE hook_id IN (?, ?)").get(old[0]!, old[1]!)).toEqual({ n: 0 });
  expect(await expectStatsRight(t, "shop")).toEqual({ pending: "2", handled: "0", failed: "0", discarded: "0" });
  await expectStatsRight(t, "other");
});

test("max_hooks_per_channel keeps each channel's newest hooks and moves every counter of the deleted ones", async () => {
  const t = createTestApp({ hooks: { max_hooks_per_channel: 250 } });
  const burst = await t.catchHooks("burst", 1_300);
  const calm = await t.catchHooks("calm", 10);
  // Statuses among the deleted and the kept hooks, so every counter has to move right.
  for (const id of [burst[0]!, burst[1]!, burst[1_299]!]) await t.call("POST", `/v1/hooks/${id}/process`);
  for (const id of [burst[2]!, burst[1_298]!]) await t.call("POST", `/v1/hooks/${id}/fail`, { message: "no" });
  await t.call("POST", `/v1/hooks/${burst[3]!}/discard`);

  await t.runner.tick();
  expect(await storedIds(t, "burst")).toEqual(burst.slice(-250).reverse());
  expect(await storedIds(t, "calm")).toEqual([...calm].reverse());
  expect((await t.call("GET", "/v1/channels/burst")).json.stats).toEqual({ pending: "248", handled: "1", failed: "1", discarded: "0" });
});

test("a sweep larger than one tick's budget stops at it, goes on at the next tick, and keeps and counts hooks caught in between", async () => {
  const t = createTestApp({ hooks: { max_hooks_per_channel: 5 } });
  const worker = createRetention({ config: t.config, store: t.store, log: silentLog, batchSize: 3, batchesPerTick: 2 });
  const ids = await t.catchHooks("busy", 20);
  const now = t.clock.now();

  // Hooks caught while the sweep runs (it yields between its transactions) are kept and counted.
  const [next, caught] = await Promise.all([worker.tick(now), t.catchHooks("busy", 2)]);
  expect(next).toBe(now); // 2 batches of 3 deleted; more to do, so it asks to be called again at once
  expect((await storedIds(t, "busy")).length).toBe(16);
  await expectStatsRight(t, "busy");

  while ((await worker.tick(now)) === now);
  expect(await storedIds(t, "busy")).toEqual([...ids, ...caught].slice(-5).reverse());
  await expectStatsRight(t, "busy");
});

test("with nothing to delete a tick is cheap: the store is checked at most every RETENTION_CHECK_MS", async () => {
  const t = createTestApp({ hooks: { retention: "1h" } });
  const worker = createRetention({ config: t.config, store: t.store, log: silentLog });
  const now = t.clock.now();
  expect(await worker.tick(now)).toBe(now + RETENTION_CHECK_MS);
  await t.catchHooks("late", 1);
  // Woken before the next check (the runner wakes workers after every caught batch), it does not look.
  expect(await worker.tick(now + RETENTION_CHECK_MS - 1)).toBe(now + RETENTION_CHECK_MS);
  t.clock.advance(2 * 3_600_000);
  expect(await worker.tick(t.clock.now())).toBe(t.clock.now() + RETENTION_CHECK_MS);
  expect(await storedIds(t, "late")).toEqual([]);

  const unconfigured = createRetention({ config: createTestApp().config, store: t.store, log: silentLog });
  expect(await unconfigured.tick(now)).toBeNull();
});

test("ulidFloor sorts below every id caught before it and not above one caught at it", async () => {
  const { createIdFactory, ulidFloor, ulidTime } = await import("../../src/lib/ids");
  const { createFakeClock } = await import("../helpers/clock");
  const clock = createFakeClock();
  const next = createIdFactory(clock);
  const before = next();
  clock.advance(1);
  const floor = ulidFloor(clock.now());
  const at = next();
  expect(before < floor).toBe(true);
  expect(floor <= at).toBe(true);
  expect(ulidTime(floor)).toBe(clock.now());
});

test("retention by age deletes in batches too: a tick stops at its budget and asks to run again at once", async () => {
  const t = createTestApp({ hooks: { retention: "1h" } });
  const worker = createRetention({ config: t.config, store: t.store, log: silentLog, batchSize: 3, batchesPerTick: 2 });
  await t.catchHooks("old", 20);
  t.clock.advance(3_600_001);
  const now = t.clock.now();
  expect(await worker.tick(now)).toBe(now);
  expect((await storedIds(t, "old")).length).toBe(14);
  await expectStatsRight(t, "old");
  while ((await worker.tick(now)) === now);
  expect(await storedIds(t, "old")).toEqual([]);
});

test("a sweep yields between its transactions: a hook sent during it is answered before the sweep ends", async () => {
  const t = createTestApp({ hooks: { max_hooks_per_channel: 1 } });
  const worker = createRetention({ config: t.config, store: t.store, log: silentLog, batchSize: 1, batchesPerTick: 15 });
  await t.catchHooks("full", 20);
  const order: string[] = [];
  const sweep = worker.tick(t.clock.now()).then(() => order.push("sweep ended"));
  const caught = t.app.handle(new Request("http://localhost/?channel=other", { method: "POST", body: "{}" })).then((r) => order.push(`caught ${r.status}`));
  await Promise.all([sweep, caught]);
  expect(order).toEqual(["caught 200", "sweep ended"]);
});
