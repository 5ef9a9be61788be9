// Mailroom inside a `bun test` suite: a webhook receiver whose deliveries a test waits for, and a
// translation API a client is tested against. Installed with `npm install --save-dev mailroom-webhooks`.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { startMailroom, type Mailroom } from "mailroom-webhooks/testing";

const SECRET = "s3cret";
let mr: Mailroom;
// bun test gives a test 5 s; a wait of 5 s inside one would be cut short before it could say why.
setDefaultTimeout(30_000);

beforeAll(async () => {
  mr = await startMailroom({
    config: `
      [[guards]]
      name = "gh"
      kind = "github"
      secret = "${SECRET}"

      [hooks]
      default_guards = ["gh"]
    `,
  });
});
afterAll(() => mr.stop());

test("a signed GitHub delivery is caught and can be awaited", async () => {
  const channel = mr.channel();
  const res = await mr.send(channel, '{"action":"opened"}', { sign: { github: SECRET }, headers: { "x-github-event": "issues" } });
  expect(res.status).toBe(200);
  const hook = await mr.waitForHook({ channel, where: (h) => h.payload?.action === "opened", timeout: 5_000 });
  expect(hook.headers["x-github-event"]).toBe("issues");
  expect((await mr.api.hooks.get(hook.id)).status).toBe("pending");
});

test("a badly signed delivery is refused, and a wait that times out says why", async () => {
  const channel = mr.channel();
  expect((await mr.send(channel, "{}", { sign: { github: "wrong" } })).status).toBe(401);
  const error = await mr.waitForHook({ channel, timeout: 200 }).catch((e: Error) => e);
  expect(String(error)).toContain("does not match");
});

test("a translation client against its own account", async () => {
  // A second instance of its own, stopped when the test ends.
  const tr = await startMailroom();
  try {
    const account = await tr.translate.account({ balance: 10 });
    const placed = await account.a.translate({ source_language: "en", target_languages: ["de"], text: "Hello" });
    await tr.translate.simulator.completeNow();
    const order = await tr.translate.waitForOrder(placed.orders[0]!.id, "DONE");
    expect(order.target_text).toBe("[de] Hello");
    expect((await account.b.account()).balance).toBeLessThan(10);
  } finally {
    await tr.stop();
  }
});
