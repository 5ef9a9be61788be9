import { describe, expect, test } from "bun:test";
import Stripe from "stripe";
import { receivers } from "../runner/receiver";
import { createRunnerApp, forward } from "../runner/setup";
import { createHmac } from "node:crypto";
import { dashboardApp } from "../dashboard/support";

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

  test("a guard added in the dashboard counts: the hooks it authenticated are recorded verified, those before it not", async () => {
    const t = await dashboardApp({ handlers: [], channels: [] });
    const post = async (body: string, headers: Record<string, string> = {}) => {
      const res = await t.post("gh", body, headers);
      expect(res.status).toBe(200);
      return ((await res.json()) as { id: string }).id;
    };
    const before = await post('{"n":1}');
    expect((await t.call("POST", "/ui/api/guards", { name: "gh-in", kind: "github", secret: CATCH_SECRET }, t.admin)).status).toBe(200);
    expect((await t.call("PUT", "/ui/api/channels/gh/guards", { guards: ["gh-in"] }, t.admin)).status).toBe(200);
    const body = '{"n":2}';
    const after = await post(body, { "x-hub-signature-256": `sha256=${createHmac("sha256", CATCH_SECRET).update(body).digest("hex")}` });
    expect((await t.storage.hooks.getHook(before))?.verified).toBe(false);
    expect((await t.storage.hooks.getHook(after))?.verified).toBe(true);
    // The Hook resource stays exactly as documented.
    expect(Object.keys((await t.call("GET", `/v1/hooks/${after}`)).json)).not.toContain("verified");
    // Where a client asks for extensions, summaries and export lines, it is there.
    expect((await t.call("GET", `/v1/hooks/${after}?include=extensions`)).json.verified).toBe(true);
    expect((await t.call("GET", `/v1/hooks/${before}?include=extensions`)).json.verified).toBe(false);
    const summaries = (await t.call("GET", "/v1/hooks?channel=gh&fields=summary")).json as { id: string; verified?: boolean }[];
    expect(summaries.map((h) => [h.id, h.verified])).toEqual([
      [after, true],
      [before, false],
    ]);
    const line = JSON.parse((await t.call("GET", `/v1/hooks/export?id=${after}`)).text.trim());
    expect(line.verified).toBe(true);
  });
});
