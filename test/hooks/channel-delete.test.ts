import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";

type TestApp = ReturnType<typeof createTestApp>;

const send = (t: TestApp, channel: string, n = 0) =>
  t.app.handle(new Request(`http://localhost/?channel=${channel}`, { method: "POST", body: `{"n":${n}}` }));

async function catchHooks(t: TestApp, channel: string, n: number): Promise<string[]> {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => send(t, channel, i).then((r) => r.json())));
  return (answers as { id: string }[]).map((a) => a.id);
}

/** Stored hooks of a channel by status, counted in the table, beside the channel's counters. */
function countsAndStats(t: TestApp, channel: string) {
  const counts = { pending: 0, handled: 0, failed: 0, discarded: 0 } as Record<string, number>;
  for (const r of t.db.$client.query("SELECT status, COUNT(*) AS n FROM hooks WHERE channel = ? GROUP BY status").all(channel) as { status: string; n: number }[]) {
    counts[r.status] = r.n;
  }
  const row = t.db.$client.query("SELECT pending, handled, failed, discarded FROM channels WHERE name = ?").get(channel) as Record<string, number> | null;
  return { counts, stats: row ? { ...row } : null, total: Object.values(counts).reduce((a, b) => a + b, 0) };
}

test("a channel's hooks go in short transactions: catching goes on meanwhile and the counters stay right after each", async () => {
  const t = createTestApp({}, { channelDeleteBatch: 3 });
  const ids = await catchHooks(t, "big", 20);
  await t.call("POST", `/v1/hooks/${ids[0]}/discard`);
  await catchHooks(t, "other", 2);

  const order: string[] = [];
  let midway: ReturnType<typeof countsAndStats> | undefined;
  const deleted = t.call("DELETE", "/v1/channels/big").then((r) => order.push(`deleted ${r.status}`));
  const caught = send(t, "other").then((r) => {
    midway = countsAndStats(t, "big");
    order.push(`caught ${r.status}`);
  });
  await Promise.all([deleted, caught]);

  // One transaction would have finished before the hook was committed.
  expect(order).toEqual(["caught 200", "deleted 200"]);
  expect(midway!.total).toBeGreaterThan(0);
  expect(midway!.total).toBeLessThan(20);
  expect(midway!.stats).toEqual(midway!.counts);

  expect((await t.call("GET", "/v1/channels/big")).status).toBe(404);
  expect(countsAndStats(t, "big")).toEqual({ counts: { pending: 0, handled: 0, failed: 0, discarded: 0 }, stats: null, total: 0 });
  for (const id of [ids[0], ids[19]]) expect((await t.call("GET", `/v1/hooks/${id}`)).status).toBe(404);
  expect((await t.call("GET", "/v1/channels/other")).json.stats.pending).toBe("3");
  expect(t.db.$client.query("SELECT COUNT(*) AS n FROM events WHERE hook_id NOT IN (SELECT id FROM hooks)").get()).toEqual({ n: 0 });
});

test("hooks caught into the channel while it is deleted go with it; a hook sent after the call creates it again", async () => {
  const t = createTestApp({}, { channelDeleteBatch: 2 });
  await catchHooks(t, "big", 10);
  const [answer, newcomer] = await Promise.all([
    t.call("DELETE", "/v1/channels/big"),
    send(t, "big", 99).then((r) => r.json() as Promise<{ id: string }>),
  ]);
  expect(answer.status).toBe(200);
  expect((await t.call("GET", `/v1/hooks/${newcomer.id}`)).status).toBe(404);
  expect((await t.call("GET", "/v1/channels/big")).status).toBe(404);
  expect(countsAndStats(t, "big").total).toBe(0);

  const later = (await send(t, "big").then((r) => r.json())) as { id: string };
  expect((await t.call("GET", "/v1/channels/big")).json.stats).toEqual({ pending: "1", handled: "0", failed: "0", discarded: "0" });
  expect((await t.call("GET", `/v1/hooks/${later.id}`)).status).toBe(200);
});

test("two deletes of one channel at once both succeed and leave nothing behind", async () => {
  const t = createTestApp({ channels: [{ name: "conf" }] }, { channelDeleteBatch: 2 });
  await catchHooks(t, "conf", 9);
  const answers = await Promise.all([t.call("DELETE", "/v1/channels/conf"), t.call("DELETE", "/v1/channels/conf")]);
  expect(answers.map((a) => a.status)).toEqual([200, 200]);
  // A configured channel is declared again, empty.
  expect((await t.call("GET", "/v1/channels/conf")).json.stats).toEqual({ pending: "0", handled: "0", failed: "0", discarded: "0" });
  expect(countsAndStats(t, "conf").total).toBe(0);
});

test("deleting a channel that keeps receiving hooks faster than one batch per turn still finishes", async () => {
  const t = createTestApp({}, { channelDeleteBatch: 2 });
  await catchHooks(t, "busy", 10);
  let done = false;
  const deleted = t.call("DELETE", "/v1/channels/busy").then((r) => ((done = true), r.status));
  let rounds = 0;
  // Four hooks per turn against two deleted per turn: only the hooks caught before the call are batched.
  while (!done && rounds++ < 200) await catchHooks(t, "busy", 4);
  expect(await deleted).toBe(200);
  expect(rounds).toBeLessThan(200);
  // The last round may land after the answer and create the channel again; its counters are right.
  const after = countsAndStats(t, "busy");
  expect(after.total).toBeLessThanOrEqual(4);
  if (after.total > 0) expect(after.stats).toEqual(after.counts);
});
