import { expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";

/**
 * Starts deleting a channel of 300 hooks, one per transaction with a rest of at least one turn of
 * the event loop after each (far more turns than a call needs); resolves once the first is gone, with the call (in an object, so that it is not awaited).
 */
async function deletionUnderWay(t: TestApp, channel: string) {
  await t.catchHooks(channel, 300);
  const first = Promise.withResolvers<void>();
  const deleteHooks = t.store.deleteHooks;
  t.store.deleteHooks = (keys) => (first.resolve(), deleteHooks(keys));
  const deleted = t.call("DELETE", `/v1/channels/${channel}`);
  await first.promise;
  return { deleted };
}

test("pausing a channel while it is being deleted is refused with 409, and the deletion still finishes", async () => {
  const t = createTestApp({}, { channelDeleteBatch: 1 });
  const { deleted } = await deletionUnderWay(t, "going");
  const paused = await t.call("POST", "/v1/channels/going/pause");
  expect(paused.status).toBe(409);
  expect(paused.json.code).toBe(9);
  expect(paused.json.message).toContain("being deleted");
  expect(paused.json.details).toEqual([]);
  expect((await deleted).status).toBe(200);
  expect((await t.call("GET", "/v1/channels/going")).status).toBe(404);
  // A hook sent afterwards creates it again, not paused.
  expect((await t.post("going")).status).toBe(200);
  expect((await t.call("GET", "/v1/channels/going")).json.paused).toBe(false);
});

test("a configured channel paused during its deletion is refused too: it comes back not paused", async () => {
  const t = createTestApp({ channels: [{ name: "declared" }] }, { channelDeleteBatch: 1 });
  const { deleted } = await deletionUnderWay(t, "declared");
  expect((await t.call("POST", "/v1/channels/declared/pause")).status).toBe(409);
  expect((await deleted).status).toBe(200);
  expect((await t.call("GET", "/v1/channels/declared")).json.paused).toBe(false);
  // Once the deletion is over, pausing works again.
  expect((await t.call("POST", "/v1/channels/declared/pause")).json.paused).toBe(true);
});

test("resuming during a deletion is answered as usual: the channel comes back not paused either way", async () => {
  const t = createTestApp({}, { channelDeleteBatch: 1 });
  await t.post("held");
  await t.call("POST", "/v1/channels/held/pause");
  const { deleted } = await deletionUnderWay(t, "held");
  const resumed = await t.call("POST", "/v1/channels/held/resume");
  expect(resumed.status).toBe(200);
  expect(resumed.json.paused).toBe(false);
  expect((await deleted).status).toBe(200);
});
