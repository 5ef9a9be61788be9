import { describe, expect, test } from "bun:test";
import Stripe from "stripe";
import { receivers } from "../runner/receiver";
import { createRunnerApp, forward } from "../runner/setup";

/**
 * Issue 30 (security): re-signing vouches for a hook with the app's real secret, so only a hook a
 * guard verified on catch is re-signed. A hook on a channel without a signature guard (anyone can
 * post to the public catching endpoint) is delivered as caught and the attempt says why.
 */
const receiver = receivers();
const BODY = '{"id":"evt_forged","type":"payout.paid"}';
const APP_SECRET = "whsec_the_apps_real_secret";
const CATCH_SECRET = "whsec_stripe_sender";

describe("re-signing only what a guard verified", () => {
  test("an unguarded channel's hook is sent as caught, not signed; a guarded one is re-signed", async () => {
    const open = receiver();
    const guarded = receiver();
    const resign = { kind: "stripe", secret: APP_SECRET };
    const t = createRunnerApp({
      handlers: [forward("open-out", open.url, { resign }), forward("guarded-out", guarded.url, { resign })],
      channels: [
        { name: "open", handlers: ["open-out"], guards: ["only-post"] },
        { name: "guarded", handlers: ["guarded-out"], guards: ["stripe-in"] },
      ],
      guards: [
        { name: "only-post", kind: "method", allow: ["POST"] },
        { name: "stripe-in", kind: "stripe", secret: CATCH_SECRET },
      ],
    } as never);
    const stripe = new Stripe("sk_test_unused");
    t.clock.set(Date.now()); // Stripe's library judges by the real time
    const forged = await t.send("open", BODY);
    const header = await stripe.webhooks.generateTestHeaderStringAsync({ payload: BODY, secret: CATCH_SECRET, timestamp: Math.floor(t.clock.now() / 1000) });
    const real = await t.send("guarded", BODY, { "stripe-signature": header });
    await t.runner.tick();

    const sent = open.received[0]!;
    expect(sent.headers["stripe-signature"]).toBeUndefined();
    await expect(
      stripe.webhooks.constructEventAsync(new TextDecoder().decode(sent.body), sent.headers["stripe-signature"] ?? "", APP_SECRET),
    ).rejects.toThrow();
    const [attempt] = await t.attempts(forged);
    expect(attempt.outcome).toBe("succeeded");
    expect(attempt.resigned).toBe("not re-signed: unverified");

    const good = guarded.received[0]!;
    expect((await stripe.webhooks.constructEventAsync(new TextDecoder().decode(good.body), good.headers["stripe-signature"]!, APP_SECRET)).id).toBe(
      "evt_forged",
    );
    expect((await t.attempts(real))[0].resigned).toBe("stripe");
  });
});
