/**
 * Why a signature failed (docs/diagnoses.md): for each cause, a request made wrong in exactly that
 * way gets that diagnosis in GET /v1/refusals, for GitHub, Stripe, Shopify, Slack, Twilio and
 * Standard Webhooks. No secret appears in any answer. Runs on every target (MAILROOM_TEST_TARGET).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { startTarget, type Target } from "../helpers/target";

const S = { right: "right-secret-8f2a", other: "other-secret-77c1" };
const WH = {
  right: `whsec_${Buffer.from("standard-right-key-0123456789").toString("base64")}`,
  other: `whsec_${Buffer.from("standard-other-key-0123456789").toString("base64")}`,
};
const PUBLIC = "https://hooks.example.com";
const providers = ["github", "stripe", "shopify", "slack", "twilio", "standard-webhooks"] as const;
type Provider = (typeof providers)[number];

const config = {
  server: { public_url: PUBLIC },
  guards: providers.flatMap((p) => [
    { name: `${p}-main`, kind: p, secret: p === "standard-webhooks" ? WH.right : S.right },
    { name: `${p}-staging`, kind: p, secret: p === "standard-webhooks" ? WH.other : S.other },
  ]),
  channels: providers.flatMap((p) => [
    { name: `${p.replace("-", "")}`, guards: [`${p}-main`] },
    { name: `${p.replace("-", "")}staging`, guards: [`${p}-staging`] },
  ]),
};

const mac = (alg: string, key: string | Buffer, text: string) => createHmac(alg, key).update(text).digest();
const now = () => Math.floor(Date.now() / 1000);

/** Signature headers as each provider makes them. */
function sign(p: Provider, secret: string, body: string, o: { ts?: number; url?: string; encoding?: "swap" } = {}): Record<string, string> {
  const ts = String(o.ts ?? now());
  const enc = (b: Buffer, natural: "hex" | "base64") => b.toString(o.encoding === "swap" ? (natural === "hex" ? "base64" : "hex") : natural);
  switch (p) {
    case "github":
      return { "x-hub-signature-256": `sha256=${enc(mac("sha256", secret, body), "hex")}`, "x-github-event": "push", "content-type": "application/json" };
    case "stripe":
      return { "stripe-signature": `t=${ts},v1=${enc(mac("sha256", secret, `${ts}.${body}`), "hex")}`, "content-type": "application/json" };
    case "shopify":
      return { "x-shopify-hmac-sha256": enc(mac("sha256", secret, body), "base64"), "x-shopify-topic": "orders/create", "content-type": "application/json" };
    case "slack":
      return {
        "x-slack-signature": `v0=${enc(mac("sha256", secret, `v0:${ts}:${body}`), "hex")}`,
        "x-slack-request-timestamp": ts,
        "content-type": "application/json",
      };
    case "standard-webhooks": {
      const key = Buffer.from(secret.slice(6), "base64");
      const id = "msg_2b3c";
      return {
        "webhook-id": id,
        "webhook-timestamp": ts,
        "webhook-signature": `v1,${enc(mac("sha256", key, `${id}.${ts}.${body}`), "base64")}`,
        "content-type": "application/json",
      };
    }
    case "twilio": {
      const params = [...new URLSearchParams(body)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const signed = (o.url ?? `${PUBLIC}/?channel=twilio`) + params.map(([k, v]) => k + v).join("");
      return { "x-twilio-signature": enc(mac("sha1", secret, signed), "base64"), "content-type": "application/x-www-form-urlencoded" };
    }
  }
}

const JSON_BODY = { zeta: 1, alpha: { name: "Zoë", url: "https://example.com/a/b" }, list: [1, 2] };
const compact = JSON.stringify(JSON_BODY);
const FORM = "To=%2B15551230000&From=%2B15559870000&Body=hello+there&AccountSid=AC123";

let t: Target;
beforeAll(async () => {
  t = await startTarget(config);
});
afterAll(() => t?.stop());

/** Sends, expects a 401, and returns the refusal's diagnosis (newest refusal of the channel). */
async function diagnosisOf(channel: string, body: string, headers: Record<string, string>) {
  const r = await t.post(channel, body, headers);
  expect(r.status).toBe(401);
  const listed = (await t.call("GET", `/v1/refusals?channel=${channel}&limit=1`)).json as { diagnosis: Record<string, unknown> }[];
  const all = JSON.stringify(listed);
  for (const s of [S.right, S.other, WH.right, WH.other]) expect(all).not.toContain(s);
  return listed[0]!.diagnosis;
}

const chan = (p: Provider) => p.replace("-", "");
const bodyOf = (p: Provider) => (p === "twilio" ? FORM : compact);

for (const p of providers) {
  test(`${p}: signed with another channel's secret names that guard`, async () => {
    const d = await diagnosisOf(chan(p), bodyOf(p), sign(p, p === "standard-webhooks" ? WH.other : S.other, bodyOf(p)));
    expect(d).toMatchObject({ cause: "wrong_secret", guard: `${p}-staging` });
    expect(d.message).toContain(`${p}-staging`);
  });

  test(`${p}: a body changed on the way says which change`, async () => {
    if (p === "twilio") {
      const reordered = [...new URLSearchParams(FORM)]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%20/g, "+")}`)
        .join("&");
      // Twilio signs the sorted fields, so re-ordering them is harmless: a changed value is not.
      const d = await diagnosisOf(chan(p), FORM.replace("hello+there", "hello%20there!"), sign(p, S.right, reordered));
      expect(d.cause).toBe("unknown");
      return;
    }
    const pretty = JSON.stringify(JSON_BODY, null, 2);
    const d = await diagnosisOf(chan(p), pretty, sign(p, p === "standard-webhooks" ? WH.right : S.right, compact));
    expect(d).toMatchObject({ cause: "body_changed" });
    expect(String(d.change)).toContain("compact");
    const sorted = await diagnosisOf(
      chan(p),
      JSON.stringify({ alpha: JSON_BODY.alpha, list: [1, 2], zeta: 1 }),
      sign(p, p === "standard-webhooks" ? WH.right : S.right, compact),
    );
    expect(sorted.cause).toBe("unknown"); // the sender's key order cannot be recovered from a sorted body
    const newline = await diagnosisOf(chan(p), `${compact}\n`, sign(p, p === "standard-webhooks" ? WH.right : S.right, compact));
    expect(newline).toMatchObject({ cause: "body_changed" });
    expect(String(newline.change)).toContain("trailing newline");
  });

  if (p === "stripe" || p === "slack" || p === "standard-webhooks") {
    test(`${p}: a valid signature with a stale timestamp says the clock is off by how much`, async () => {
      const d = await diagnosisOf(chan(p), compact, sign(p, p === "standard-webhooks" ? WH.right : S.right, compact, { ts: now() - 1000 }));
      expect(d).toMatchObject({ cause: "clock_skew", direction: "past" });
      expect(Math.abs(Number(d.skew_seconds) - 1000)).toBeLessThanOrEqual(5);
      const ahead = await diagnosisOf(chan(p), compact, sign(p, p === "standard-webhooks" ? WH.right : S.right, compact, { ts: now() + 900 }));
      expect(ahead).toMatchObject({ cause: "clock_skew", direction: "future" });
    });
  }

  if (p === "twilio") {
    test("twilio: signed for the forwarded URL says public_url is wrong and which URL matched", async () => {
      const url = "https://internal.example.net/?channel=twilio";
      const d = await diagnosisOf(chan(p), FORM, {
        ...sign(p, S.right, FORM, { url }),
        "x-forwarded-host": "internal.example.net",
        "x-forwarded-proto": "https",
      });
      expect(d).toMatchObject({ cause: "wrong_url", url });
      const http = await diagnosisOf(chan(p), FORM, sign(p, S.right, FORM, { url: "http://hooks.example.com/?channel=twilio" }));
      expect(http).toMatchObject({ cause: "wrong_url", url: "http://hooks.example.com/?channel=twilio" });
    });
  }

  if (p !== "twilio") {
    test(`${p}: hex written where base64 is read (or back) is named`, async () => {
      const d = await diagnosisOf(chan(p), compact, sign(p, p === "standard-webhooks" ? WH.right : S.right, compact, { encoding: "swap" }));
      expect(d.cause).toBe("encoding");
    });
  }
}

test("a refusal that is not a signature's carries no diagnosis, and unknown says what was tried", async () => {
  const d = await diagnosisOf("github", compact, sign("github", "nobody-knows-this", compact));
  expect(d).toMatchObject({ cause: "unknown" });
  expect(d.tried).toContain("other secrets");
  const r = await t.post("github", compact, { "content-type": "application/json" });
  expect(r.status).toBe(401);
  const [missing] = (await t.call("GET", "/v1/refusals?channel=github&limit=1")).json as { diagnosis: unknown }[];
  expect(missing!.diagnosis).toBeNull();
});
