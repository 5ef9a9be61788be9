import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Stripe from "stripe";
import { HookExpectationError, matchers, startMailroom, type HookExtended, type Mailroom } from "../../src/testing";

const STRIPE = "whsec_proofs_secret";
let mr: Mailroom;
beforeAll(async () => {
  mr = await startMailroom({
    config: { guards: [{ name: "st", kind: "stripe", secret: STRIPE }], channels: [{ name: "payments", guards: ["st"] }] },
  });
});
afterAll(() => mr.stop());

expect.extend(matchers);
declare module "bun:test" {
  interface Matchers<T> {
    toMatchSchema(schema: object): T;
  }
}

const send = async (channel: string, type: string, extra: Record<string, unknown> = {}) => {
  const res = await mr.send(channel, { type, ...extra });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
};
/** The rejection of `p`, which must reject. */
const rejection = async (p: Promise<unknown>): Promise<HookExpectationError> => {
  const outcome = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(outcome).toBeInstanceOf(HookExpectationError);
  return outcome as HookExpectationError;
};

describe("expectHooks", () => {
  test("waits for hooks that arrive after the call, and counts those stored before; resolves with them in catch order", async () => {
    const channel = mr.channel();
    const first = await send(channel, "invoice.paid", { n: 1 });
    const proof = mr.expectHooks({ channel, where: "type:invoice.paid", count: 3, within: "5s" });
    const second = await send(channel, "invoice.paid", { n: 2 });
    await send(channel, "invoice.created");
    const third = await send(channel, "invoice.paid", { n: 3 });
    const hooks = await proof;
    expect(hooks.map((h) => h.id)).toEqual([first, second, third]);
    expect((await mr.hooks({ channel })).map((h) => h.event_type)).toEqual(["invoice.paid", "invoice.paid", "invoice.created", "invoice.paid"]);
    expect((await mr.hooks({ channel, where: (h) => h.payload?.n === 2 })).map((h) => h.id)).toEqual([second]);
  });

  test("a predicate and at least: resolves as soon as enough matched", async () => {
    const channel = mr.channel();
    const proof = mr.expectHooks({ channel, where: (h) => h.payload?.amount === 5, count: { atLeast: 2 }, within: 5000 });
    await send(channel, "charge", { amount: 5 });
    await send(channel, "charge", { amount: 6 });
    await send(channel, "charge", { amount: 5 });
    expect((await proof).map((h) => h.payload?.amount)).toEqual([5, 5]);
    // Without a count: at least one.
    expect(await mr.expectHooks({ channel, within: 1000 })).toHaveLength(3);
  });

  test("too few within the time: the message says what was wanted and lists what arrived, ids, event types and times", async () => {
    const channel = mr.channel();
    const other = await send(channel, "customer.created");
    const paid = await send(channel, "invoice.paid");
    const error = await rejection(mr.expectHooks({ channel, where: "type:invoice.paid", count: 2, within: 300 }));
    const [head, ...rest] = error.message.split("\n");
    expect(head).toBe(`expectHooks: expected exactly 2 hooks in channel "${channel}" matching \`type:invoice.paid\` within 300 ms; 1 hook arrived.`);
    expect(rest[0]).toBe("Matching (1, oldest first):");
    expect(rest[1]).toMatch(new RegExp(`^  ${paid} \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z ${channel} invoice\\.paid pending \\{"type":"invoice\\.paid"\\}$`));
    expect(rest[2]).toBe(`Arrived in channel "${channel}" (2, oldest first):`);
    expect(rest[3]).toContain(`${other} `);
    expect(rest[3]).toContain(" customer.created pending ");
    expect(error.matched.map((h) => h.id)).toEqual([paid]);
    expect(error.arrived.map((h) => h.id)).toEqual([other, paid]);
  });

  test("exactly: one too many fails, also when it comes within settle", async () => {
    const channel = mr.channel();
    await send(channel, "a");
    await send(channel, "a");
    const error = await rejection(mr.expectHooks({ channel, count: 1, within: 1000 }));
    expect(error.message.split("\n")[0]).toBe(`expectHooks: expected exactly 1 hook in channel "${channel}" within 1000 ms; 2 hooks arrived.`);
    const single = mr.channel();
    await send(single, "b");
    const proof = mr.expectHooks({ channel: single, count: 1, within: 1000, settle: "5s" });
    await send(single, "b");
    expect((await rejection(proof)).matched).toHaveLength(2);
    // Exactly n, none more within settle: resolves once settle has passed.
    const calm = mr.channel();
    await send(calm, "c");
    const started = Date.now();
    expect(await mr.expectHooks({ channel: calm, count: 1, within: 1000, settle: 200 })).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  test("nothing at all: the message says so", async () => {
    const channel = mr.channel();
    const error = await rejection(mr.expectHooks({ channel, where: (h) => h.event_type === "x", within: "200ms" }));
    expect(error.message).toBe(
      [
        `expectHooks: expected at least 1 hook in channel "${channel}" matching the where function within 200 ms; 0 hooks arrived.`,
        "Matching: none.",
        `Arrived in channel "${channel}": none.`,
      ].join("\n"),
    );
  });

  test("too few on a guarded channel: the message also lists the requests its guards refused, and why", async () => {
    expect((await mr.send("payments", { type: "invoice.paid" }, { sign: { stripe: "whsec_not_the_secret" } })).status).toBe(401);
    const error = await rejection(mr.expectHooks({ channel: "payments", where: "type:invoice.voided", within: 100 }));
    const lines = error.message.split("\n");
    const at = lines.findIndex((l) => l.startsWith("Refused by guards (the last "));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(/^ {2}\S+ POST payments: guard st answered 401: /);
  });

  test("a bad duration or count is a TypeError", async () => {
    await expect(mr.expectHooks({ within: "soon" })).rejects.toThrow('within: must be milliseconds or a duration such as "5s", got "soon"');
    await expect(mr.expectHooks({ count: -1 })).rejects.toThrow("count: must be a whole number");
  });
});

describe("expectNoHook", () => {
  test("resolves when nothing matching arrives during the time", async () => {
    const channel = mr.channel();
    await send(channel, "invoice.created");
    const started = Date.now();
    await mr.expectNoHook({ channel, where: "type:invoice.paid", during: 300 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  test("rejects at the first matching hook, before the time is up, listing it", async () => {
    const channel = mr.channel();
    const started = Date.now();
    const proof = mr.expectNoHook({ channel, where: (h) => h.event_type === "refund.created", during: "20s" });
    await send(channel, "invoice.created");
    const refund = await send(channel, "refund.created");
    const error = await rejection(proof);
    expect(Date.now() - started).toBeLessThan(15_000);
    const lines = error.message.split("\n");
    expect(lines[0]).toBe(`expectNoHook: expected no hook in channel "${channel}" matching the where function during 20000 ms; 1 hook arrived.`);
    expect(lines[1]).toBe("Matching (1, oldest first):");
    expect(lines[2]).toStartWith(`  ${refund} `);
    expect(lines[3]).toBe(`Arrived in channel "${channel}" (2, oldest first):`);
  });

  test("a matching hook stored before the call counts", async () => {
    const channel = mr.channel();
    const id = await send(channel, "x");
    expect((await rejection(mr.expectNoHook({ channel, during: 5000 }))).matched.map((h) => h.id)).toEqual([id]);
  });
});

describe("toMatchSchema", () => {
  const schema = {
    type: "object",
    required: ["type", "data"],
    properties: { type: { type: "string" }, data: { type: "object", properties: { amount: { type: "integer" } }, required: ["amount"] } },
  };

  test("passes for a hook whose JSON body matches; .not fails with a message", async () => {
    const channel = mr.channel();
    await send(channel, "invoice.paid", { data: { amount: 5 } });
    const [hook] = (await mr.expectHooks({ channel })) as [HookExtended];
    expect(hook).toMatchSchema(schema);
    let message = "";
    try {
      expect(hook).not.toMatchSchema(schema);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(`hook ${hook.id} (invoice.paid) matches the schema.`);
  });

  test("fails with each violation's JSON path", async () => {
    const channel = mr.channel();
    await send(channel, "invoice.paid", { data: { amount: "5" } });
    const [hook] = (await mr.expectHooks({ channel })) as [HookExtended];
    let message = "";
    try {
      expect(hook).toMatchSchema(schema);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(`hook ${hook.id} (invoice.paid) does not match the schema (1 violation):\n  /data/amount: must be integer`);
    expect({ data: {} }).not.toMatchSchema(schema);
    const direct = matchers.toMatchSchema.call({}, { data: {} }, schema);
    expect(direct.pass).toBe(false);
    expect(direct.message()).toContain(
      "the value does not match the schema (2 violations):\n  /: must have required property 'type'\n  /data: must have required property 'amount'",
    );
  });

  test("a hook without a JSON body does not match, and says why", async () => {
    const channel = mr.channel();
    await mr.send(channel, "plain words", { headers: { "content-type": "text/plain" } });
    const [hook] = (await mr.expectHooks({ channel })) as [HookExtended];
    const result = matchers.toMatchSchema.call({}, hook, schema);
    expect(result.pass).toBe(false);
    expect(result.message()).toContain(`hook ${hook.id} has no JSON body (content type text/plain): "plain words"`);
  });
});

describe("trigger({ fixture })", () => {
  test("sends a saved fixture with fresh ids and times, overrides applied, signed as its provider; today's trigger(provider, event) still works", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mailroom-proofs-"));
    try {
      expect((await mr.trigger("stripe", "invoice.paid", { channel: "payments", sign: STRIPE })).status).toBe(200);
      const [caught] = (await mr.expectHooks({ channel: "payments", where: "type:invoice.paid", count: 1 })) as [HookExtended];
      const res = await mr.fetch(`/v1/hooks/${caught.id}/fixture`);
      const file = join(dir, "stripe-invoice-paid.json");
      writeFileSync(file, await res.text());
      const sent = await mr.trigger({ fixture: file, overrides: { "data.object.amount_paid": 4242 }, sign: STRIPE });
      expect(sent.status).toBe(200);
      const [, copy] = (await mr.expectHooks({ channel: "payments", where: "type:invoice.paid", count: 2 })) as [HookExtended, HookExtended];
      expect((copy.payload!.data as { object: { amount_paid: number } }).object.amount_paid).toBe(4242);
      expect(copy.payload?.id).not.toBe(caught.payload?.id);
      const event = await new Stripe("sk_test_unused").webhooks.constructEventAsync(
        Buffer.from(copy.body, "base64").toString(),
        copy.headers["stripe-signature"]!,
        STRIPE,
      );
      expect(event.type as string).toBe("invoice.paid");
      // Unsigned, the guard refuses it; a file that is not a fixture is refused before anything is sent.
      expect((await mr.trigger({ fixture: file })).status).toBe(401);
      writeFileSync(file, JSON.stringify({ mailroom_fixture: 1, method: "GET /admin", headers: {} }));
      await expect(mr.trigger({ fixture: file })).rejects.toThrow("method: not an HTTP method");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
