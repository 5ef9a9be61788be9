// Mailroom inside a `node --test` suite (no Bun needed: the package ships the executable).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startMailroom } from "mailroom-webhooks/testing";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
let mr;

before(async () => {
  mr = await startMailroom({
    config: {
      guards: [{ name: "sw", kind: "standard-webhooks", secret: SECRET }],
      channels: [{ name: "payments", guards: ["sw"] }],
    },
  });
});
after(() => mr.stop());

test("a Standard Webhooks delivery is caught and awaited", async () => {
  const res = await mr.send("payments", { type: "invoice.paid", id: 7 }, { sign: { "standard-webhooks": SECRET } });
  assert.equal(res.status, 200);
  const hook = await mr.waitForHook({ channel: "payments", where: (h) => h.payload?.id === 7, timeout: 5_000 });
  assert.equal(hook.payload.type, "invoice.paid");
  const [channel] = await mr.api.channels.list();
  assert.equal(channel.name, "payments");
});

test("an unsigned delivery is refused and listed when a wait times out", async () => {
  assert.equal((await mr.send("payments", "{}")).status, 401);
  await assert.rejects(mr.waitForHook({ channel: "payments", where: () => false, timeout: 200 }), /Refused by guards \(1/);
});

test("each test gets its own translation account", async () => {
  const first = await mr.translate.account({ balance: 5 });
  const second = await mr.translate.account();
  await first.b.translate({ source_language: "en", target_languages: ["fr"], text: "Hi" });
  assert.equal((await first.b.orders()).length, 1);
  assert.deepEqual(await second.b.orders(), []);
});
