/**
 * Diagnoses with the providers' own libraries as the signers (docs/diagnoses.md): the library signs
 * with the wrong secret or an old timestamp, and GET /v1/refusals names the cause.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sign as octokitSign } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import { startTarget, type Target } from "../helpers/target";

const S = { right: "right-secret-8f2a", other: "other-secret-77c1" };
const WH = {
  right: `whsec_${Buffer.from("standard-right-key-0123456789").toString("base64")}`,
  other: `whsec_${Buffer.from("standard-other-key-0123456789").toString("base64")}`,
};
const BODY = '{"id":"evt_1","type":"ping"}';
const config = {
  guards: [
    { name: "gh-main", kind: "github", secret: S.right },
    { name: "gh-old", kind: "github", secret: S.other },
    { name: "st-main", kind: "stripe", secret: S.right },
    { name: "st-old", kind: "stripe", secret: S.other },
    { name: "sw-main", kind: "standard-webhooks", secret: WH.right },
    { name: "sw-old", kind: "standard-webhooks", secret: WH.other },
  ],
  channels: [
    { name: "gh", guards: ["gh-main"] },
    { name: "ghold", guards: ["gh-old"] },
    { name: "st", guards: ["st-main"] },
    { name: "stold", guards: ["st-old"] },
    { name: "sw", guards: ["sw-main"] },
    { name: "swold", guards: ["sw-old"] },
  ],
};

let t: Target;
beforeAll(async () => {
  t = await startTarget(config);
});
afterAll(() => t.stop());

async function diagnosisOf(channel: string, headers: Record<string, string>) {
  const res = await t.call("POST", `/?channel=${channel}`, BODY, { "content-type": "application/json", ...headers });
  expect(res.status).toBe(401);
  const [r] = (await t.call("GET", `/v1/refusals?channel=${channel}&limit=1`)).json;
  expect(JSON.stringify(r)).not.toContain(S.other);
  return r.diagnosis;
}

test("github: Octokit signing with another guard's secret names that guard", async () => {
  expect(await diagnosisOf("gh", { "x-hub-signature-256": await octokitSign(S.other, BODY), "x-github-event": "ping" })).toMatchObject({
    cause: "wrong_secret",
    guard: "gh-old",
  });
});

test("stripe: the Stripe library signing with the wrong secret, then an old timestamp", async () => {
  const stripe = new Stripe("sk_test_unused");
  const wrong = await stripe.webhooks.generateTestHeaderStringAsync({ payload: BODY, secret: S.other });
  expect(await diagnosisOf("st", { "stripe-signature": wrong })).toMatchObject({ cause: "wrong_secret", guard: "st-old" });
  const old = await stripe.webhooks.generateTestHeaderStringAsync({ payload: BODY, secret: S.right, timestamp: Math.floor(Date.now() / 1000) - 3600 });
  expect(await diagnosisOf("st", { "stripe-signature": old })).toMatchObject({ cause: "clock_skew", direction: "past" });
});

test("standard webhooks: the standardwebhooks library signing with the wrong secret, then an old timestamp", async () => {
  const headers = (secret: string, at: Date) => {
    const id = "msg_1";
    return { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": new Webhook(secret).sign(id, at, BODY) };
  };
  expect(await diagnosisOf("sw", headers(WH.other, new Date()))).toMatchObject({ cause: "wrong_secret", guard: "sw-old" });
  expect(await diagnosisOf("sw", headers(WH.right, new Date(Date.now() - 3_600_000)))).toMatchObject({ cause: "clock_skew", direction: "past" });
});
