import { describe, expect, test } from "bun:test";
import Stripe from "stripe";

/** The v1 signatures of a Stripe-Signature header. */
const parseStripeSignature = (header: string) => ({ v1: [...header.matchAll(/v1=([0-9a-f]+)/g)].map((m) => m[1]!) });
import { BODY, expectPassed, expectRefused, makeGuard, request } from "./support";

const SECRET = "whsec_test_5f3b7c0e1d2a4b6c8d9e0f1a2b3c4d5e";
const stripe = new Stripe("sk_test_unused");

describe("stripe guard, against stripe.webhooks.generateTestHeaderString", () => {
  const { guard, clock } = makeGuard({ kind: "stripe", secret: SECRET });
  const now = () => Math.floor(clock.now() / 1000);
  const header = (opts: { payload?: string; secret?: string; timestamp?: number } = {}) =>
    stripe.webhooks.generateTestHeaderStringAsync({ payload: opts.payload ?? BODY, secret: opts.secret ?? SECRET, timestamp: opts.timestamp ?? now() });

  test("a delivery signed by Stripe's library passes, and Stripe's own verifier agrees", async () => {
    const signature = await header();
    await expectPassed(guard, request({ body: BODY, headers: { "stripe-signature": signature } }));
    // Stripe's verifier takes the time of receipt in ms, so it can be told the fake clock's time.
    expect(await stripe.webhooks.constructEventAsync(BODY, signature, SECRET, 300, undefined, clock.now())).toMatchObject({ id: "evt_1" });
  });

  test("several v1 signatures (a rolled secret) pass when one matches", async () => {
    const good = parseStripeSignature(await header()).v1[0]!;
    const old = parseStripeSignature(await header({ secret: "whsec_old" })).v1[0]!;
    const signature = `t=${now()},v1=${old},v1=${good},v0=deadbeef`;
    await expectPassed(guard, request({ body: BODY, headers: { "stripe-signature": signature } }));
  });

  test("a tampered body is refused with 401, revealing neither secret nor expected signature", async () => {
    const tampered = BODY.replace("evt_1", "evt_9");
    const expected = parseStripeSignature(await header({ payload: tampered })).v1[0]!;
    await expectRefused(guard, request({ body: tampered, headers: { "stripe-signature": await header() } }), 401, /matches the body/, [SECRET, expected]);
  });

  test("a tampered timestamp is refused", async () => {
    const signature = (await header()).replace(/^t=(\d+)/, (_, t) => `t=${Number(t) + 1}`);
    await expectRefused(guard, request({ body: BODY, headers: { "stripe-signature": signature } }), 401, /matches the body/);
  });

  test("a timestamp older than the tolerance (default 300s) is refused; one inside it passes", async () => {
    await expectPassed(guard, request({ body: BODY, headers: { "stripe-signature": await header({ timestamp: now() - 300 }) } }));
    await expectRefused(
      guard,
      request({ body: BODY, headers: { "stripe-signature": await header({ timestamp: now() - 301 }) } }),
      401,
      /301s away from now, beyond the tolerance of 300s/,
    );
  });

  test("the tolerance follows the injected clock and the configured value", async () => {
    const { guard: strict, clock: c } = makeGuard({ kind: "stripe", secret: SECRET, tolerance: "10s" });
    const signature = await stripe.webhooks.generateTestHeaderStringAsync({ payload: BODY, secret: SECRET, timestamp: Math.floor(c.now() / 1000) });
    await expectPassed(strict, request({ body: BODY, headers: { "stripe-signature": signature } }));
    c.advance(11_000);
    await expectRefused(strict, request({ body: BODY, headers: { "stripe-signature": signature } }), 401, /tolerance of 10s/);
  });

  test('tolerance = "0s" turns the age check off: a signature from a day ago passes', async () => {
    const { guard: lax, clock: c } = makeGuard({ kind: "stripe", secret: SECRET, tolerance: "0s" });
    const dayAgo = Math.floor(c.now() / 1000) - 86_400;
    const signature = await stripe.webhooks.generateTestHeaderStringAsync({ payload: BODY, secret: SECRET, timestamp: dayAgo });
    await expectPassed(lax, request({ body: BODY, headers: { "stripe-signature": signature } }));
  });

  test("a missing or malformed header is refused", async () => {
    await expectRefused(guard, request({ body: BODY }), 401, /missing Stripe-Signature/);
    await expectRefused(guard, request({ body: BODY, headers: { "stripe-signature": "v1=abc" } }), 401, /no timestamp/);
    await expectRefused(guard, request({ body: BODY, headers: { "stripe-signature": `t=${now()},v0=abc` } }), 401, /no v1 signature/);
    await expectRefused(guard, request({ body: BODY, headers: { "stripe-signature": "garbage" } }), 401, /no timestamp/);
  });
});
