import { describe, expect, test } from "bun:test";
import { sign } from "node:crypto";
import { crc32 } from "node:zlib";
import { createCertificateFetcher } from "../../src/hooks/guards/certificates/fetcher";
import { createPaypalGuard } from "../../src/hooks/guards/certificates/paypal";
import { systemClock } from "../../src/lib/clock";
import { fakeNetwork, selfSigned } from "./certificates-support";

// No PayPal library verifies offline (the SDKs ask PayPal's verify-webhook-signature API), so the
// vector follows PayPal's documentation of self-verification
// (https://developer.paypal.com/api/rest/webhooks/rest/#link-selfverificationmethod):
// SHA256withRSA of "<transmission id>|<transmission time>|<webhook id>|<CRC32 of the raw body, decimal>".

const { cert, key } = selfSigned();
const WEBHOOK_ID = "4JH86294D6297924G";
const CERT_URL = "https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77";
const BODY = '{"id":"WH-58D329510W468432D-8HN650336L201105X","event_type":"PAYMENT.CAPTURE.COMPLETED","resource":{"amount":{"value":"10.00"}}}';

function signed(
  body = BODY,
  more: Record<string, string> = {},
  signingKey = key,
): { headers: Headers; body: Uint8Array; method: string; query: string; ip: string } {
  const id = "69cd13f0-d67a-11e5-baa3-778b53f4ae55";
  const time = new Date().toISOString();
  const text = `${id}|${time}|${WEBHOOK_ID}|${crc32(body)}`;
  const headers = new Headers({
    "paypal-transmission-id": id,
    "paypal-transmission-time": time,
    "paypal-transmission-sig": sign("sha256", Buffer.from(text), signingKey).toString("base64"),
    "paypal-cert-url": CERT_URL,
    "paypal-auth-algo": "SHA256withRSA",
    ...more,
  });
  return { method: "POST", query: "", headers, body: new TextEncoder().encode(body), ip: "127.0.0.1" };
}
const paypal = (more: Record<string, unknown> = {}, certificates?: ReturnType<typeof createCertificateFetcher>) =>
  createPaypalGuard({ name: "pp", kind: "paypal", webhook_id: WEBHOOK_ID, certificate: cert, ...more }, { clock: systemClock, certificates });

describe("paypal", () => {
  test("a signed event is accepted; its event type is event_type", async () => {
    expect(await paypal().check(signed())).toEqual({ ok: true });
    expect(paypal().eventType).toEqual({ body: ["event_type"] });
  });

  test("a tampered body, another webhook id, another signer, a missing header or another algorithm is refused with its reason", async () => {
    const reason = async (r: ReturnType<typeof signed>, guard = paypal()) => {
      const v = await guard.check(r);
      return v.ok ? "accepted" : `${v.status} ${v.reason}`;
    };
    const mismatch = "401 PAYPAL-TRANSMISSION-SIG does not match the transmission id, time, webhook id and body";
    const tampered = signed();
    tampered.body = new TextEncoder().encode(BODY.replace("10.00", "99.00"));
    expect(await reason(tampered)).toBe(mismatch);
    expect(await reason(signed(), paypal({ webhook_id: "OTHER" }))).toBe(mismatch);
    expect(await reason(signed(BODY, {}, selfSigned().key))).toBe(mismatch);
    const missing = signed();
    missing.headers.delete("paypal-transmission-sig");
    missing.headers.delete("paypal-transmission-time");
    expect(await reason(missing)).toBe("401 missing PAYPAL-TRANSMISSION-TIME, PAYPAL-TRANSMISSION-SIG headers");
    expect(await reason(signed(BODY, { "paypal-auth-algo": "SHA1withRSA" }))).toBe('401 PAYPAL-AUTH-ALGO is not "SHA256withRSA"');
  });

  test("with a tolerance, a stale transmission time is refused", async () => {
    const stale = signed();
    const id = stale.headers.get("paypal-transmission-id")!;
    const time = new Date(Date.now() - 600_000).toISOString();
    stale.headers.set("paypal-transmission-time", time);
    stale.headers.set("paypal-transmission-sig", sign("sha256", Buffer.from(`${id}|${time}|${WEBHOOK_ID}|${crc32(BODY)}`), key).toString("base64"));
    expect(await paypal().check(stale)).toEqual({ ok: true });
    expect(await paypal({ tolerance: 300_000 }).check(stale)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^PAYPAL-TRANSMISSION-TIME is 60\ds away from now/),
    });
  });

  test("fetch_certificate: PAYPAL-CERT-URL is fetched once from PayPal's hosts; any other host is never fetched", async () => {
    const net = fakeNetwork({ [CERT_URL]: cert });
    const guard = paypal({ certificate: undefined, fetch_certificate: true }, createCertificateFetcher({ fetch: net.fetch }));
    expect(await guard.check(signed())).toEqual({ ok: true });
    expect(await guard.check(signed())).toEqual({ ok: true });
    for (const url of ["https://evil.example/certs/x", "http://api.paypal.com/v1/notifications/certs/x", "https://api.paypal.com.evil.example/x"]) {
      expect(await guard.check(signed(BODY, { "paypal-cert-url": url }))).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/^PAYPAL-CERT-URL is not/),
      });
    }
    const none = signed();
    none.headers.delete("paypal-cert-url");
    expect(await guard.check(none)).toMatchObject({ ok: false, reason: "missing PAYPAL-CERT-URL header" });
    expect(net.asked).toEqual([CERT_URL]);
  });
});
