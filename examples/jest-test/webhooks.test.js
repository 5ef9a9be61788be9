// Mailroom inside a jest suite, with jest's default setup (CommonJS, no transform of its own):
// the helper's CommonJS entry point, and the executable of the platform package.
const { startMailroom } = require("mailroom-webhooks/testing");

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
let mr;
// jest gives a test 5 s; a wait of 5 s inside one would be cut short before it could say why.
jest.setTimeout(30_000);

beforeAll(async () => {
  mr = await startMailroom({
    config: {
      guards: [{ name: "sw", kind: "standard-webhooks", secret: SECRET }],
      channels: [{ name: "payments", guards: ["sw"] }],
    },
  });
});
afterAll(() => mr.stop());

test("a Standard Webhooks delivery is caught and awaited", async () => {
  const res = await mr.send("payments", { type: "invoice.paid", id: 7 }, { sign: { "standard-webhooks": SECRET } });
  expect(res.status).toBe(200);
  const hook = await mr.waitForHook({ channel: "payments", where: (h) => h.payload && h.payload.id === 7, timeout: 5000 });
  expect(hook.payload.type).toBe("invoice.paid");
});

test("an unsigned delivery is refused", async () => {
  expect((await mr.send("payments", "{}")).status).toBe(401);
  await expect(mr.waitForHook({ channel: "payments", where: () => false, timeout: 200 })).rejects.toThrow(/Refused by guards \(1/);
});

test("proofs and the schema matcher", async () => {
  const { matchers } = require("mailroom-webhooks/testing");
  expect.extend(matchers);
  await mr.send("payments", { type: "invoice.paid", id: 8, amount: 500 }, { sign: { "standard-webhooks": SECRET } });
  const [hook] = await mr.expectHooks({ channel: "payments", where: "type:invoice.paid payload.id:8", count: 1, within: "5s" });
  expect(hook).toMatchSchema({ type: "object", required: ["amount"], properties: { amount: { type: "integer" } } });
  await mr.expectNoHook({ channel: "payments", where: "type:refund.created", during: 200 });
});
