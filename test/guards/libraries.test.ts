import { describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { sign as octokitSign, verify as octokitVerify } from "@octokit/webhooks-methods";
import { LinearWebhookClient } from "@linear/sdk/webhooks";
import { Paddle } from "@paddle/paddle-node-sdk";
import { EventWebhook } from "@sendgrid/eventwebhook";
import { verifyKey } from "discord-interactions";
import { WebhooksHelper } from "square";
import { Webhook as StandardWebhook } from "standardwebhooks";
import Stripe from "stripe";
import { Webhook as Svix } from "svix";
import twilio from "twilio";
import { PRESETS } from "../../src/hooks/guards/providers";
import { signRequest } from "../../src/hooks/guards/scheme/sign";
import type { GuardVerdict } from "../../src/hooks/guards";
import { createFakeClock } from "../helpers/clock";
import { makeGuard, request } from "./support";

/**
 * Against the providers' own libraries (devDependencies, judges only): a request signed by the
 * library passes Mailroom's guard, and the library accepts what Mailroom's signer (`mailroom send
 * --sign`, the test helper, `mailroom trigger`) produces. Then the four refusals, each with its
 * reason: a changed body, another secret, a stale timestamp, a missing signature header.
 */

const URL_ = "https://hooks.example.com/?channel=c";
const JSON_BODY = '{"id":"evt_1","type":"customer.created","data":{"name":"Zoë"}}';
const bytes = (s: string) => new TextEncoder().encode(s);

type Sent = { body: string; headers: Record<string, string>; url?: string };
function checker(kind: string, config: Record<string, string>, clock = createFakeClock()) {
  const { guard } = makeGuard({ kind, ...config }, { clock });
  const run = async (s: Sent): Promise<GuardVerdict> => {
    const url = s.url ?? URL_;
    return guard.check({ ...request({ body: s.body, headers: s.headers, query: url.slice(url.indexOf("?") + 1) }), url });
  };
  return { clock, run };
}
const reason = (v: GuardVerdict) => (v.ok ? "passed" : v.reason);

/** The four refusals; `resign` signs `body` with another key or at another time. */
async function expectRefusals(kind: string, run: (s: Sent) => Promise<GuardVerdict>, good: Sent, other: Sent, stale?: Sent) {
  const changed = good.body.includes("evt_1") ? good.body.replace("evt_1", "evt_2") : good.body.replace("hello", "HELLO");
  expect(reason(await run({ ...good, body: changed }))).toMatch(/match/);
  expect(reason(await run(other))).toMatch(/match/);
  if (stale) expect(reason(await run(stale))).toMatch(/beyond the tolerance/);
  const sig = PRESETS.get(kind)!.scheme.header!.replace("{n}", "1").toLowerCase();
  const { [sig]: _, ...rest } = good.headers;
  expect(reason(await run({ ...good, headers: rest }))).toMatch(new RegExp(`^missing .*${sig}`, "i"));
}

/** Mailroom's signer for a preset. */
function ours(
  kind: string,
  keys: { secret?: string; privateKey?: string },
  body: string,
  headers: Record<string, string> = { "content-type": "application/json" },
  now = Date.now(),
  url = URL_,
): Sent {
  const s = signRequest(PRESETS.get(kind)!.scheme, keys, { url, method: "POST", headers, body: bytes(body) }, now);
  return { body, headers: { ...headers, ...s.headers }, url: s.url };
}

describe("providers' libraries agree with Mailroom", () => {
  test("GitHub: @octokit/webhooks-methods signs and verifies", async () => {
    const { run, clock } = checker("github", { secret: "gh-secret" });
    const good = { body: JSON_BODY, headers: { "x-hub-signature-256": await octokitSign("gh-secret", JSON_BODY) } };
    expect(await run(good)).toEqual({ ok: true });
    const mine = ours("github", { secret: "gh-secret" }, JSON_BODY, {}, clock.now());
    expect(await octokitVerify("gh-secret", JSON_BODY, mine.headers["x-hub-signature-256"]!)).toBe(true);
    await expectRefusals("github", run, good, { body: JSON_BODY, headers: { "x-hub-signature-256": await octokitSign("other", JSON_BODY) } });
  });

  test("Stripe: stripe.webhooks signs and verifies", async () => {
    const stripe = new Stripe("sk_test_unused");
    const secret = "whsec_test_secret";
    const { run, clock } = checker("stripe", { secret });
    const at = Math.floor(clock.now() / 1000);
    const header = (s: string, t = at) => stripe.webhooks.generateTestHeaderStringAsync({ payload: JSON_BODY, secret: s, timestamp: t });
    const good = { body: JSON_BODY, headers: { "stripe-signature": await header(secret) } };
    expect(await run(good)).toEqual({ ok: true });
    const mine = ours("stripe", { secret }, JSON_BODY, {}, clock.now());
    expect((await stripe.webhooks.constructEventAsync(JSON_BODY, mine.headers["stripe-signature"]!, secret, 300, undefined, clock.now())).id).toBe("evt_1");
    await expectRefusals(
      "stripe",
      run,
      good,
      { body: JSON_BODY, headers: { "stripe-signature": await header("whsec_other") } },
      {
        body: JSON_BODY,
        headers: { "stripe-signature": await header(secret, at - 3600) },
      },
    );
  });

  test("Svix (and Clerk, Resend, Goody): svix signs with svix-* headers; it verifies Mailroom's", async () => {
    const secret = `whsec_${Buffer.from("svix test key 0123456789").toString("base64")}`;
    for (const kind of ["svix", "clerk", "resend", "goody"]) {
      const { run, clock } = checker(kind, { secret });
      const svixHeaders = (s: string, at = new Date(clock.now())) => ({
        "svix-id": "msg_1",
        "svix-timestamp": String(Math.floor(at.getTime() / 1000)),
        "svix-signature": new Svix(s).sign("msg_1", at, JSON_BODY),
      });
      const good = { body: JSON_BODY, headers: svixHeaders(secret) };
      expect(await run(good)).toEqual({ ok: true });
      const mine = ours(kind, { secret }, JSON_BODY, {}, Date.now());
      expect(new Svix(secret).verify(JSON_BODY, mine.headers)).toMatchObject({ id: "evt_1" });
      await expectRefusals(
        kind,
        run,
        good,
        { body: JSON_BODY, headers: svixHeaders(`whsec_${Buffer.from("another").toString("base64")}`) },
        {
          body: JSON_BODY,
          headers: svixHeaders(secret, new Date(clock.now() - 3_600_000)),
        },
      );
    }
  });

  test("Standard Webhooks (and OpenAI): the reference library signs and verifies", async () => {
    const secret = `whsec_${Buffer.from("standard webhooks key").toString("base64")}`;
    for (const kind of ["standard-webhooks", "openai"]) {
      const { run, clock } = checker(kind, { secret });
      const wh = (s: string) => new StandardWebhook(s);
      const headers = (s: string, at = new Date(clock.now())) => ({
        "webhook-id": "msg_2",
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": wh(s).sign("msg_2", at, JSON_BODY),
      });
      expect(await run({ body: JSON_BODY, headers: headers(secret) })).toEqual({ ok: true });
      const mine = ours(kind, { secret }, JSON_BODY, {}, Date.now());
      expect(wh(secret).verify(JSON_BODY, mine.headers)).toMatchObject({ id: "evt_1" });
      await expectRefusals(
        kind,
        run,
        { body: JSON_BODY, headers: headers(secret) },
        { body: JSON_BODY, headers: headers(`whsec_${Buffer.from("x").toString("base64")}`) },
        { body: JSON_BODY, headers: headers(secret, new Date(clock.now() - 3_600_000)) },
      );
    }
  });

  test("Twilio: twilio's getExpectedTwilioSignature signs the public URL and sorted form; validateRequest accepts Mailroom's", async () => {
    const token = "twilio-auth-token";
    const form = "Body=hello&From=%2B15551234567&To=%2B15557654321";
    const params = Object.fromEntries(new URLSearchParams(form));
    const { run } = checker("twilio", { secret: token });
    const headers = (t: string) => ({
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": twilio.getExpectedTwilioSignature(t, URL_, params),
    });
    const good = { body: form, headers: headers(token) };
    expect(await run(good)).toEqual({ ok: true });
    const mine = ours("twilio", { secret: token }, form, { "content-type": "application/x-www-form-urlencoded" });
    expect(twilio.validateRequest(token, mine.headers["x-twilio-signature"]!, URL_, params)).toBe(true);
    await expectRefusals("twilio", run, good, { body: form, headers: headers("other-token") });
    // A JSON body: the URL carries the body's SHA-256 (bodySHA256), checked too.
    const json = ours("twilio", { secret: token }, JSON_BODY);
    expect(twilio.validateRequestWithBody(token, json.headers["x-twilio-signature"]!, json.url!, JSON_BODY)).toBe(true);
    expect(await run(json)).toEqual({ ok: true });
    expect(reason(await run({ ...json, body: JSON_BODY.replace("evt_1", "evt_2") }))).toMatch(/bodySHA256/);
    // A body that is neither a form nor hashed in the URL would pass unsigned: a signature of the URL
    // alone (an empty form) must not carry any other body.
    const urlOnly = twilio.getExpectedTwilioSignature(token, URL_, {});
    expect(await run({ body: "", headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": urlOnly } })).toEqual({ ok: true });
    for (const contentType of ["text/plain", "application/json"]) {
      const refused = await run({ body: "anything at all", headers: { "content-type": contentType, "x-twilio-signature": urlOnly } });
      expect(reason(refused)).toMatch(/body is not form-encoded and there is no bodySHA256 query parameter/);
    }
  });

  test("SendGrid: @sendgrid/eventwebhook verifies Mailroom's ECDSA P-256 signature", async () => {
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const publicKey = pair.publicKey.export({ format: "der", type: "spki" }).toString("base64");
    const privateKey = pair.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    const { run, clock } = checker("sendgrid", { public_key: publicKey });
    const body = '[{"email":"a@example.com","event":"delivered","sg_event_id":"evt_1"}]\r\n';
    const good = ours("sendgrid", { privateKey }, body, {}, clock.now());
    const ew = new EventWebhook();
    const ts = good.headers["x-twilio-email-event-webhook-timestamp"]!;
    expect(ew.verifySignature(ew.convertPublicKeyToECDSA(publicKey), body, good.headers["x-twilio-email-event-webhook-signature"]!, ts)).toBe(true);
    expect(await run(good)).toEqual({ ok: true });
    const otherKey = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    await expectRefusals(
      "sendgrid",
      run,
      good,
      ours("sendgrid", { privateKey: otherKey }, body, {}, clock.now()),
      ours("sendgrid", { privateKey }, body, {}, clock.now() - 3_600_000),
    );
  });

  test("Discord: discord-interactions' verifyKey accepts Mailroom's Ed25519 signature", async () => {
    const pair = generateKeyPairSync("ed25519");
    const publicHex = pair.publicKey.export({ format: "der", type: "spki" }).subarray(12).toString("hex");
    const privateKey = pair.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    const { run, clock } = checker("discord", { public_key: publicHex });
    const body = '{"id":"evt_1","type":2,"data":{"name":"ping"}}';
    const good = ours("discord", { privateKey }, body, {}, clock.now());
    expect(await verifyKey(body, good.headers["x-signature-ed25519"]!, good.headers["x-signature-timestamp"]!, publicHex)).toBe(true);
    expect(await run(good)).toEqual({ ok: true });
    const other = generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    await expectRefusals(
      "discord",
      run,
      good,
      ours("discord", { privateKey: other }, body, {}, clock.now()),
      ours("discord", { privateKey }, body, {}, clock.now() - 3_600_000),
    );
  });

  test("Square: WebhooksHelper.verifySignature accepts Mailroom's signature of the notification URL and body", async () => {
    const key = "square-signature-key";
    const { run } = checker("square", { secret: key });
    const good = ours("square", { secret: key }, JSON_BODY);
    expect(
      await WebhooksHelper.verifySignature({
        requestBody: JSON_BODY,
        signatureHeader: good.headers["x-square-hmacsha256-signature"]!,
        signatureKey: key,
        notificationUrl: URL_,
      }),
    ).toBe(true);
    expect(await run(good)).toEqual({ ok: true });
    await expectRefusals("square", run, good, ours("square", { secret: "other" }, JSON_BODY));
  });

  test("HubSpot v3: @hubspot/api-client's Signature signs method, URL, body and timestamp; it accepts Mailroom's", async () => {
    const secret = "hubspot-client-secret";
    const { run, clock } = checker("hubspot", { secret });
    const mine = ours("hubspot", { secret }, JSON_BODY, { "content-type": "application/json" }, Date.now());
    const { Signature: Sig } = await import("@hubspot/api-client/lib/src/utils/signature");
    const options = {
      signatureVersion: "v3",
      clientSecret: secret,
      requestBody: JSON_BODY,
      url: URL_,
      method: "POST",
      timestamp: Number(mine.headers["x-hubspot-request-timestamp"]),
    };
    expect(Sig.isValid({ ...options, signature: mine.headers["x-hubspot-signature-v3"]! })).toBe(true);
    const at = clock.now();
    const libHeaders = (s: string, t = at) => ({
      "x-hubspot-request-timestamp": String(t),
      "x-hubspot-signature-v3": Sig.getSignature("POST", "v3", { ...options, clientSecret: s, timestamp: t, signature: "" }),
    });
    const good = { body: JSON_BODY, headers: libHeaders(secret) };
    expect(await run(good)).toEqual({ ok: true });
    await expectRefusals(
      "hubspot",
      run,
      good,
      { body: JSON_BODY, headers: libHeaders("other") },
      { body: JSON_BODY, headers: libHeaders(secret, at - 3_600_000) },
    );
  });

  test("Paddle: @paddle/paddle-node-sdk's isSignatureValid accepts Mailroom's ts=...;h1=...", async () => {
    const secret = "pdl_ntfset_secret";
    const body = '{"event_id":"evt_1","event_type":"transaction.completed","data":{}}';
    const mine = ours("paddle", { secret }, body, {}, Date.now());
    expect(await new Paddle("pdl_sdbx_apikey_unused").webhooks.isSignatureValid(body, secret, mine.headers["paddle-signature"]!)).toBe(true);
    const { run, clock } = checker("paddle", { secret });
    const good = ours("paddle", { secret }, body, {}, clock.now());
    expect(await run(good)).toEqual({ ok: true });
    await expectRefusals(
      "paddle",
      run,
      good,
      ours("paddle", { secret: "other" }, body, {}, clock.now()),
      ours("paddle", { secret }, body, {}, clock.now() - 60_000),
    );
  });

  test("Linear: @linear/sdk's LinearWebhookClient.verify accepts Mailroom's signature; the body's webhookTimestamp is checked", async () => {
    const secret = "lin_wh_secret";
    const { run, clock } = checker("linear", { secret });
    const body = (t: number) => JSON.stringify({ action: "create", type: "Issue", data: { id: "evt_1" }, webhookTimestamp: t });
    const good = ours("linear", { secret }, body(Date.now()));
    expect(new LinearWebhookClient(secret).verify(Buffer.from(good.body), good.headers["linear-signature"]!, JSON.parse(good.body).webhookTimestamp)).toBe(
      true,
    );
    const now = ours("linear", { secret }, body(clock.now()));
    expect(await run(now)).toEqual({ ok: true });
    const old = ours("linear", { secret }, body(clock.now() - 61_000));
    expect(reason(await run(old))).toMatch(/beyond the tolerance of 60s/);
    await expectRefusals("linear", run, now, ours("linear", { secret: "other" }, body(clock.now())));
  });
});
