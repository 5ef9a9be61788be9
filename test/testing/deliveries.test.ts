import { afterEach, expect, test } from "bun:test";
import { startMailroom } from "../../src/testing";
import { forwardFlags } from "../../src/testing/deliveries";
import { receivers } from "../runner/receiver";

// The helper's forwarding options and mr.deliveries(): a Mailroom process from source, apps in this process.

const receiver = receivers();
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

test("forwardTo routes by event type, and deliveries() lists what reached each app with its status", async () => {
  const billing = receiver({ status: 200, body: "billed" });
  const rest = receiver({ status: 202 });
  const mr = await startMailroom({
    forwardTo: [
      ["invoice.*", billing.url],
      ["*", rest.url],
    ],
  });
  stops.push(mr.stop);
  const channel = mr.channel();
  const ids: string[] = [];
  for (const type of ["invoice.paid", "customer.created"]) {
    const res = await mr.send(channel, { type });
    ids.push(((await res.json()) as { id: string }).id);
  }
  for (const id of ids) await mr.waitForHook({ channel, status: "handled", where: (h) => h.id === id });
  expect(billing.received.map((r) => r.headers["x-mailroom-hook-id"])).toEqual([ids[0]!]);
  expect(rest.received.map((r) => r.headers["x-mailroom-hook-id"])).toEqual([ids[1]!]);

  const deliveries = await mr.deliveries({ channel });
  expect(deliveries.map((d) => [d.hook_id, d.event_type, d.handler, d.attempts.map((a) => [a.attempt, a.outcome, a.http_status])])).toEqual([
    [ids[0]!, "invoice.paid", "forward-to", [[1, "succeeded", 200]]],
    [ids[1]!, "customer.created", "forward-to-2", [[1, "succeeded", 202]]],
  ]);
  expect(deliveries[0]!.attempts[0]!.excerpt).toBe("billed");
  expect(await mr.deliveries({ channel, handler: "forward-to-2" })).toMatchObject([{ hook_id: ids[1] }]);
});

test("deliveries() shows every attempt: the app's 503, then the retry it accepted", async () => {
  const app = receiver({ status: 503, body: "starting" }, { status: 200 });
  const mr = await startMailroom({ forwardTo: app.url });
  stops.push(mr.stop);
  const channel = mr.channel();
  const { id } = (await (await mr.send(channel, { type: "ping" })).json()) as { id: string };
  // --forward-to retries after 1 s: the hook is handled once the second attempt succeeded.
  await mr.waitForHook({ channel, status: "handled", where: (h) => h.id === id, timeout: 15_000 });
  const [delivery] = await mr.deliveries({ channel });
  expect(delivery!.handler).toBe("forward-to");
  expect(delivery!.attempts.map((a) => [a.attempt, a.outcome, a.http_status, a.error])).toEqual([
    [1, "failed", 503, "answered 503 Service Unavailable"],
    [2, "succeeded", 200, ""],
  ]);
});

test("resign and chaos are passed to serve as the flags issue 30 names; without forwardTo they are refused before anything starts", () => {
  expect(
    forwardFlags({
      forwardTo: "http://127.0.0.1:3000/hooks",
      forwardChannel: "stripe",
      resign: { kind: "stripe", secret: "whsec_local" },
      chaos: { duplicate: 0.2, reorder: "2s", seed: 42 },
    }),
  ).toEqual([
    "--forward-to",
    "http://127.0.0.1:3000/hooks",
    "--channel",
    "stripe",
    "--resign",
    "stripe",
    "--secret",
    "whsec_local",
    "--chaos",
    "duplicate=0.2,reorder=2s,seed=42",
  ]);
  expect(
    forwardFlags({
      forwardTo: [
        ["invoice.*", "http://a"],
        ["*", "http://b"],
      ],
      chaos: "drop_first=1",
    }),
  ).toEqual(["--forward", "invoice.*=http://a", "--forward", "*=http://b", "--chaos", "drop_first=1"]);
  expect(forwardFlags({})).toEqual([]);
  expect(() => forwardFlags({ chaos: "seed=1" })).toThrow("resign, chaos and forwardChannel apply to what forwardTo sends; give forwardTo");
});

test("startMailroom({ resign, chaos }): the app gets a fresh Stripe signature its library accepts, twice, and deliveries() says so", async () => {
  const { default: Stripe } = await import("stripe");
  const app = receiver({ status: 200 }, { status: 200 });
  const secret = "whsec_helper_resign";
  // Only a hook a guard verified is re-signed (docs/delivery.md): the channel checks a token.
  const config = { guards: [{ name: "tok", kind: "token", secret: "catch-token", header: "x-catch-token" }], channels: [{ name: "pay", guards: ["tok"] }] };
  const mr = await startMailroom({ config, forwardTo: app.url, resign: { kind: "stripe", secret }, chaos: { duplicate: 1, seed: 7 } });
  stops.push(mr.stop);
  const channel = "pay";
  const { id } = (await (await mr.send(channel, { type: "invoice.paid" }, { headers: { "x-catch-token": "catch-token" } })).json()) as { id: string };
  await mr.waitForHook({ channel, status: "handled", where: (h) => h.id === id });
  const stripe = new Stripe("sk_test_unused");
  // duplicate = 1: every hook reaches the app twice, the same request both times, each verified by Stripe's library.
  await app.arrived(2);
  for (const got of app.received) {
    const event = await stripe.webhooks.constructEventAsync(Buffer.from(got.body), got.headers["stripe-signature"]!, secret);
    expect(event.type).toBe("invoice.paid");
  }
  const [delivery] = await mr.deliveries({ channel });
  expect(delivery!.attempts.map((a) => [a.outcome, a.resigned, a.chaos])).toEqual([["succeeded", "stripe", "duplicate"]]);
});
