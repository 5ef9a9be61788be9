import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { verify as verifyGithub } from "@octokit/webhooks-methods";
import { createHmac } from "node:crypto";
import Stripe from "stripe";
import { Webhook } from "standardwebhooks";
import { MailroomApiError, startMailroom, TranslateApiError, WaitForHookTimeout, type Mailroom } from "../../src/testing";

const SECRETS = {
  github: "It's a Secret to Everybody",
  stripe: "whsec_test_secret",
  "standard-webhooks": "whsec_" + Buffer.from("0123456789abcdef0123456789abcdef").toString("base64"),
  shopify: "shpss_x",
  slack: "slack-signing",
} as const;
type Provider = keyof typeof SECRETS;

let mr: Mailroom;
beforeAll(async () => {
  const providers = Object.keys(SECRETS) as Provider[];
  mr = await startMailroom({
    config: {
      guards: providers.map((kind) => ({ name: kind, kind, secret: SECRETS[kind] })),
      channels: providers.map((kind) => ({ name: kind, guards: [kind] })),
    },
  });
});
afterAll(() => mr.stop());

const body = '{"id":"evt_1","object":"event","type":"ping"}';

/** Sends the body signed as `provider` through the helper; the guard accepts it, and the stored headers are what was sent. */
async function signedHeaders(provider: Provider): Promise<Record<string, string>> {
  const res = await mr.send(provider, body, { sign: { [provider]: SECRETS[provider] } });
  expect(res.status).toBe(200);
  const { id } = (await res.json()) as { id: string };
  const hook = await mr.waitForHook({ channel: provider, where: (h) => h.id === id });
  expect(Buffer.from(hook.body, "base64").toString()).toBe(body);
  return hook.headers;
}

describe("send() signs as each provider, checked with the provider's own library", () => {
  test("github: @octokit/webhooks-methods verifies X-Hub-Signature-256", async () => {
    const h = await signedHeaders("github");
    expect(await verifyGithub(SECRETS.github, body, h["x-hub-signature-256"]!)).toBe(true);
  });
  test("stripe: stripe.webhooks.constructEventAsync accepts Stripe-Signature", async () => {
    const h = await signedHeaders("stripe");
    const event = await new Stripe("sk_test_unused").webhooks.constructEventAsync(body, h["stripe-signature"]!, SECRETS.stripe);
    expect(event.id).toBe("evt_1");
  });
  test("standard-webhooks: Webhook.verify accepts webhook-id, -timestamp and -signature", async () => {
    const h = await signedHeaders("standard-webhooks");
    const headers = { "webhook-id": h["webhook-id"]!, "webhook-timestamp": h["webhook-timestamp"]!, "webhook-signature": h["webhook-signature"]! };
    expect(new Webhook(SECRETS["standard-webhooks"]).verify(body, headers)).toEqual(JSON.parse(body));
  });
  test("shopify and slack (no official verifier package): the HMACs their documentation describes", async () => {
    const shopify = await signedHeaders("shopify");
    expect(shopify["x-shopify-hmac-sha256"]).toBe(createHmac("sha256", SECRETS.shopify).update(body).digest("base64"));
    const slack = await signedHeaders("slack");
    const ts = slack["x-slack-request-timestamp"]!;
    expect(slack["x-slack-signature"]).toBe("v0=" + createHmac("sha256", SECRETS.slack).update(`v0:${ts}:${body}`).digest("hex"));
  });
  test("headers, method and query are the caller's; an unknown provider is an error before anything is sent", async () => {
    const channel = mr.channel();
    const res = await mr.send(channel, "a=1", { method: "PUT", headers: { "Content-Type": "application/x-www-form-urlencoded" }, query: { ref: "main" } });
    expect(res.status).toBe(200);
    const hook = await mr.waitForHook({ channel });
    expect(hook).toMatchObject({ method: "PUT", query: "channel=" + channel + "&ref=main", content_type: "application/x-www-form-urlencoded" });
    await expect(mr.send(channel, "{}", { sign: { "no-such-provider": "x" } })).rejects.toThrow("unknown provider no-such-provider");
  });
});

describe("trigger", () => {
  test('trigger("github", "issues.labeled", { overrides, sign }) sends a realistic signed event the guard accepts', async () => {
    const res = await mr.trigger("github", "issues.labeled", { overrides: { "issue.title": "From the helper" }, sign: SECRETS.github });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    const hook = await mr.waitForHook({ channel: "github", where: (h) => h.id === id });
    expect(hook.event_type).toBe("issues.labeled");
    expect((hook.payload as { issue: { title: string } }).issue.title).toBe("From the helper");
  });
});

describe("waitForHook", () => {
  test("resolves with a hook that arrives later, through the live stream", async () => {
    const channel = mr.channel();
    const waiting = mr.waitForHook({ channel, where: (h) => h.payload?.n === 2 });
    await mr.send(channel, { n: 1 });
    await mr.send(channel, { n: 2 });
    expect((await waiting).payload).toEqual({ n: 2 });
  });

  test("resolves with a hook stored before the wait began, and waits for a status reached later", async () => {
    const channel = mr.channel();
    const { id } = (await (await mr.send(channel, { a: 1 })).json()) as { id: string };
    expect((await mr.waitForHook({ channel })).id).toBe(id);
    const discarded = mr.waitForHook({ channel, status: "discarded" });
    await mr.api.hooks.discard(id);
    expect(await discarded).toMatchObject({ id, status: "discarded", events: [{ kind: "discarded", actor: "api:mailroom-testing" }] });
  });

  test("on timeout the error lists what arrived and what a guard refused, and why", async () => {
    await mr.send("github", { action: "closed" }, { sign: { github: SECRETS.github } });
    await mr.send("github", { action: "opened" }, { sign: { github: "not the secret" } });
    const error = await mr.waitForHook({ channel: "github", where: (h) => h.payload?.action === "opened", timeout: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitForHookTimeout);
    const message = (error as Error).message;
    expect(message).toStartWith('waitForHook: no hook in channel "github" with the where condition within 300 ms.\nArrived in channel "github"');
    expect(message).toMatch(/ pending POST github application\/json \{"action":"closed"\}/);
    expect(message).toContain("Refused by guards (1, newest first):");
    expect(message).toMatch(/POST github: guard github answered 401: X-Hub-Signature-256 does not match the body/);
    expect((error as WaitForHookTimeout).refused).toHaveLength(1);
    // Each entry says whether it was refused or a provider's handshake answered; `kind` filters.
    expect((await mr.api.refusals({ channel: "github", kind: "refused" })).map((r) => [r.kind, r.status])).toEqual([["refused", 401]]);
    expect(await mr.api.refusals({ channel: "github", kind: "handshake" })).toEqual([]);
  });

  test("an empty channel says that nothing arrived and nothing was refused", async () => {
    const error = await mr.waitForHook({ channel: mr.channel(), status: "handled", timeout: 100 }).catch((e: Error) => e.message);
    expect(error).toMatch(/with status handled within 100 ms\.\nNothing arrived in channel "test-\d+-\w+"\.\nNothing was refused by a guard\.$/);
  });
});

describe("the management client", () => {
  test("answers typed resources and throws the error body", async () => {
    const channel = mr.channel("api");
    await mr.send(channel, "{}");
    expect(await mr.api.channels.pause(channel)).toMatchObject({ name: channel, paused: true, stats: { pending: "1" } });
    expect((await mr.send(channel, "{}")).status).toBe(503);
    await mr.api.channels.resume(channel);
    const error = await mr.api.hooks.get("nope").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailroomApiError);
    expect((error as MailroomApiError).status).toBe(400);
    expect((error as MailroomApiError).body.code).toBe(3);
    expect((await mr.fetch("/v1/channels")).status).toBe(200);
    expect((await mr.fetch("/v1/channels", { headers: { authorization: "Bearer wrong-token" } })).status).toBe(401);
  });
});

describe("translate", () => {
  test("account() gives each test its own account, key and balance", async () => {
    const first = await mr.translate.account({ balance: 30 });
    const second = await mr.translate.account({ balance: 1, overdraft: true });
    expect(first.id).not.toBe(second.id);
    expect(first.apiKey).not.toBe(second.apiKey);
    const placed = await first.a.translate({ source_language: "en", target_languages: ["de", "fr"], text: "Hello world" });
    expect(placed.orders).toHaveLength(2);
    expect(await second.a.orders()).toEqual([]);
    expect(await second.b.account()).toEqual({ id: second.id, balance_overdraft_allowed: true, reserved: 0, balance: 1 });
    const other = await second.a.order(placed.orders[0]!.id).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(TranslateApiError);
    expect((other as TranslateApiError).status).toBe(404);
    expect((await mr.translate.admin.ledger(first.id)).consistent).toBe(true);
  });

  test("the simulator completes on demand; waitForOrder sees the status; the translator client works too", async () => {
    const account = await mr.translate.account({ balance: 10 });
    const [mine, theirs] = (await account.b.translate({ source_language: "en", target_languages: ["de", "is"], text: "Hi" })).orders;
    await mr.translate.translator.accept(theirs!.id);
    expect(await mr.translate.simulator.completeNow()).toContain(mine!.id);
    expect((await mr.translate.waitForOrder(mine!.id, "DONE")).translator).toBe("Simulator");
    await mr.translate.translator.complete(theirs!.id, "Hæ");
    expect(await mr.translate.waitForOrder(theirs!.id, "DONE")).toMatchObject({ target_text: "Hæ", translator: "Testing translator" });
    const late = await mr.translate.waitForOrder(mine!.id, "REVISION", { timeout: 50 }).catch((e: Error) => e.message);
    expect(late).toBe(`waitForOrder: order ${mine!.id} is still DONE after 50 ms, not REVISION`);
  });
});
