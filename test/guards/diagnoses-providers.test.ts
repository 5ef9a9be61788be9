/**
 * Diagnoses for Shopify, Slack and Twilio (docs/diagnoses.md), each request made wrong in exactly
 * one way per cause. Twilio's requests are signed by the twilio library (getExpectedTwilioSignature,
 * checked by its validateRequest); Slack and Shopify have no library here, so they are signed by their
 * documented algorithms, and every signer is first shown to be accepted by the guard. Causes a scheme
 * cannot have are said: Shopify and Twilio sign no timestamp, only Twilio signs the URL, and Twilio's
 * form bodies are signed by their decoded, sorted fields (re-encoding one changes nothing).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import twilio from "twilio";
import { startTarget, type Target } from "../helpers/target";

const S = { right: "right-secret-8f2a", other: "other-secret-77c1" };
const PUBLIC = "https://hooks.example.com";
const kinds = ["shopify", "slack", "twilio"] as const;
const config = {
  server: { public_url: PUBLIC },
  guards: kinds.flatMap((k) => [
    { name: `${k}-main`, kind: k, secret: S.right },
    { name: `${k}-staging`, kind: k, secret: S.other },
  ]),
  channels: kinds.flatMap((k) => [
    { name: k, guards: [`${k}-main`] },
    { name: `${k}staging`, guards: [`${k}-staging`] },
  ]),
};

const ORDER = { id: 820982911946154500, email: "jon@example.com", line_items: [{ title: "Zoë's mug", price: "9.50" }], note: "a/b" };
const compact = JSON.stringify(ORDER);
const pretty = JSON.stringify(ORDER, null, 2);
const now = () => Math.floor(Date.now() / 1000);
const hmac = (alg: string, secret: string, text: string) => createHmac(alg, secret).update(text).digest();

/** Shopify: base64 HMAC-SHA256 of the raw body (shopify.dev, "Verify the webhook"). */
const shopify = (secret: string, body: string, encoding: "base64" | "hex" = "base64") => ({
  "content-type": "application/json",
  "x-shopify-topic": "orders/create",
  "x-shopify-hmac-sha256": hmac("sha256", secret, body).toString(encoding),
});
/** Slack: v0= hex HMAC-SHA256 of "v0:{timestamp}:{body}" (api.slack.com, "Verifying requests from Slack"). */
const slack = (secret: string, body: string, o: { ts?: number; encoding?: "hex" | "base64" } = {}) => {
  const ts = String(o.ts ?? now());
  return {
    "content-type": "application/json",
    "x-slack-request-timestamp": ts,
    "x-slack-signature": `v0=${hmac("sha256", secret, `v0:${ts}:${body}`).toString(o.encoding ?? "hex")}`,
  };
};
const SLACK_BODY = JSON.stringify({ type: "event_callback", event: { type: "app_mention", text: "héllo <@U1>", channel: "C1" } });

/** Twilio: the library's own signature of the URL the sender used and the form's fields. */
const FORM = "To=%2B15551230000&From=%2B15559870000&Body=hello+there&AccountSid=AC123&MessageSid=SM1";
const fields = (form: string) => Object.fromEntries(new URLSearchParams(form));
function twilioForm(secret: string, form: string, url = `${PUBLIC}/?channel=twilio`) {
  const signature = twilio.getExpectedTwilioSignature(secret, url, fields(form));
  expect(twilio.validateRequest(secret, signature, url, fields(form))).toBe(true);
  return { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature };
}
/** A JSON body: the URL carries its SHA-256 (bodySHA256) and is signed with no fields. */
function twilioJson(secret: string, signedBody: string) {
  const path = `/?channel=twilio&bodySHA256=${twilio.getExpectedBodyHash(signedBody)}`;
  const signature = twilio.getExpectedTwilioSignature(secret, PUBLIC + path, {});
  expect(twilio.validateRequestWithBody(secret, signature, PUBLIC + path, signedBody)).toBe(true);
  return { path, headers: { "content-type": "application/json", "x-twilio-signature": signature } };
}

let t: Target;
beforeAll(async () => {
  t = await startTarget(config);
});
afterAll(() => t?.stop());

const send = (path: string, body: string, headers: Record<string, string>) => t.call("POST", path, body, headers);

/** Sends, expects a 401, and returns the refusal's diagnosis (the channel's newest refusal). */
async function diagnosisOf(path: string, body: string, headers: Record<string, string>) {
  const r = await send(path, body, headers);
  expect(r.status).toBe(401);
  const channel = new URLSearchParams(path.split("?")[1]).get("channel");
  const listed = (await t.call("GET", `/v1/refusals?channel=${channel}&limit=1`)).json as { diagnosis: Record<string, unknown> }[];
  const all = JSON.stringify(listed);
  for (const s of Object.values(S)) expect(all).not.toContain(s);
  return listed[0]!.diagnosis;
}

test("every signer is accepted by its guard when nothing is wrong", async () => {
  expect((await send("/?channel=shopify", compact, shopify(S.right, compact))).status).toBe(200);
  expect((await send("/?channel=slack", SLACK_BODY, slack(S.right, SLACK_BODY))).status).toBe(200);
  expect((await send("/?channel=twilio", FORM, twilioForm(S.right, FORM))).status).toBe(200);
  const json = twilioJson(S.right, compact);
  expect((await send(json.path, compact, json.headers)).status).toBe(200);
});

test("shopify: wrong secret, body re-serialised, base64 written as hex", async () => {
  expect(await diagnosisOf("/?channel=shopify", compact, shopify(S.other, compact))).toMatchObject({ cause: "wrong_secret", guard: "shopify-staging" });
  const body = await diagnosisOf("/?channel=shopify", pretty, shopify(S.right, compact));
  expect(body).toMatchObject({ cause: "body_changed" });
  expect(String(body.change)).toContain("compact");
  expect(await diagnosisOf("/?channel=shopify", compact, shopify(S.right, compact, "hex"))).toMatchObject({ cause: "encoding", change: "hex" });
});

test("slack: wrong secret, body re-serialised, clock skew both ways, hex written as base64", async () => {
  expect(await diagnosisOf("/?channel=slack", SLACK_BODY, slack(S.other, SLACK_BODY))).toMatchObject({ cause: "wrong_secret", guard: "slack-staging" });
  const escaped = SLACK_BODY.replace("é", "\\u00e9");
  const body = await diagnosisOf("/?channel=slack", SLACK_BODY, slack(S.right, escaped));
  expect(body).toMatchObject({ cause: "body_changed" });
  expect(String(body.change)).toContain("unicode escaped");
  const late = await diagnosisOf("/?channel=slack", SLACK_BODY, slack(S.right, SLACK_BODY, { ts: now() - 1200 }));
  expect(late).toMatchObject({ cause: "clock_skew", direction: "past" });
  expect(Math.abs(Number(late.skew_seconds) - 1200)).toBeLessThanOrEqual(5);
  expect(await diagnosisOf("/?channel=slack", SLACK_BODY, slack(S.right, SLACK_BODY, { ts: now() + 900 }))).toMatchObject({
    cause: "clock_skew",
    direction: "future",
  });
  expect(await diagnosisOf("/?channel=slack", SLACK_BODY, slack(S.right, SLACK_BODY, { encoding: "base64" }))).toMatchObject({
    cause: "encoding",
    change: "base64",
  });
});

test("twilio (signed by the twilio library): wrong secret, wrong public URL, JSON body re-serialised, hex", async () => {
  expect(await diagnosisOf("/?channel=twilio", FORM, twilioForm(S.other, FORM))).toMatchObject({ cause: "wrong_secret", guard: "twilio-staging" });

  const forwarded = "https://internal.example.net/?channel=twilio";
  const viaProxy = { ...twilioForm(S.right, FORM, forwarded), "x-forwarded-host": "internal.example.net", "x-forwarded-proto": "https" };
  expect(await diagnosisOf("/?channel=twilio", FORM, viaProxy)).toMatchObject({ cause: "wrong_url", url: forwarded });
  const http = `http://hooks.example.com/?channel=twilio`;
  expect(await diagnosisOf("/?channel=twilio", FORM, twilioForm(S.right, FORM, http))).toMatchObject({ cause: "wrong_url", url: http });
  const slash = `${PUBLIC}?channel=twilio`;
  const noSlash = await diagnosisOf("/?channel=twilio", FORM, twilioForm(S.right, FORM, slash));
  expect(noSlash.cause).toBe("wrong_url");

  const json = twilioJson(S.right, compact);
  const body = await diagnosisOf(json.path, pretty, json.headers);
  expect(body).toMatchObject({ cause: "body_changed" });
  expect(String(body.change)).toContain("compact");

  const signed = twilioForm(S.right, FORM);
  const hex = Buffer.from(signed["x-twilio-signature"], "base64").toString("hex");
  expect(await diagnosisOf("/?channel=twilio", FORM, { ...signed, "x-twilio-signature": hex })).toMatchObject({ cause: "encoding", change: "hex" });
});

test("twilio: a form re-encoded on the way is no cause, Twilio signs the decoded fields", async () => {
  const reencoded = FORM.replace("hello+there", "hello%20there");
  expect((await send("/?channel=twilio", reencoded, twilioForm(S.right, FORM))).status).toBe(200);
});
