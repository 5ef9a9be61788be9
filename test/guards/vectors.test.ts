import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { createFakeClock } from "../helpers/clock";
import { makeGuard, request } from "./support";

/**
 * Providers whose signature or token travels in the body have no library to judge them here:
 * vectors computed as their documentation says, with the source named.
 */
describe("documented vectors", () => {
  test("Mailgun (documentation.mailgun.com, Securing Webhooks): hex HMAC-SHA256 of timestamp + token with the signing key, in the body", async () => {
    const clock = createFakeClock();
    const key = "key-mailgun-signing";
    const { guard } = makeGuard({ kind: "mailgun", secret: key }, { clock });
    const ts = String(Math.floor(clock.now() / 1000));
    const body = (token: string, signature: string, t = ts) =>
      JSON.stringify({ signature: { timestamp: t, token, signature }, "event-data": { event: "delivered", id: "evt_1" } });
    const sign = (t: string, token: string, k = key) =>
      createHmac("sha256", k)
        .update(t + token)
        .digest("hex");
    const token = "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0";
    expect(await guard.check(request({ body: body(token, sign(ts, token)) }))).toEqual({ ok: true });
    const reasonOf = async (b: string) => {
      const v = await guard.check(request({ body: b }));
      return v.ok ? "passed" : v.reason;
    };
    expect(await reasonOf(body(`${token}x`, sign(ts, token)))).toMatch(/does not match the timestamp and token/);
    expect(await reasonOf(body(token, sign(ts, token, "other")))).toMatch(/does not match/);
    const old = String(Number(ts) - 3600);
    expect(await reasonOf(body(token, sign(old, token), old))).toMatch(/beyond the tolerance/);
    expect(await reasonOf('{"event-data":{}}')).toBe("the body has no field signature.signature");
  });

  test("Figma (figma.com/developers/api, webhooks security): the passcode in the body is compared with the secret", async () => {
    const { guard } = makeGuard({ kind: "figma", secret: "figma-passcode" });
    expect(await guard.check(request({ body: '{"event_type":"FILE_UPDATE","passcode":"figma-passcode"}' }))).toEqual({ ok: true });
    const wrong = await guard.check(request({ body: '{"event_type":"FILE_UPDATE","passcode":"guess"}' }));
    expect(wrong.ok ? "" : wrong.reason).toBe("wrong token in body field passcode");
  });

  test("Microsoft Graph (learn.microsoft.com, change notifications): each notification's clientState is the subscription's", async () => {
    const { guard } = makeGuard({ kind: "microsoft-graph", secret: "client-state-1" });
    expect(await guard.check(request({ body: '{"value":[{"clientState":"client-state-1","changeType":"created"}]}' }))).toEqual({ ok: true });
    const wrong = await guard.check(request({ body: '{"value":[{"clientState":"forged","changeType":"created"}]}' }));
    expect(wrong.ok).toBe(false);
  });

  test("Twitch (dev.twitch.tv, Verifying the event message): HMAC-SHA256 of id + RFC 3339 timestamp + body, 10 minutes", async () => {
    const clock = createFakeClock();
    const secret = "twitch-subscription-secret";
    const { guard } = makeGuard({ kind: "twitch", secret }, { clock });
    const body = '{"subscription":{"type":"channel.follow"},"event":{"user_id":"1"}}';
    const at = new Date(clock.now() - 9 * 60_000).toISOString();
    const sig = `sha256=${createHmac("sha256", secret).update(`msg-1${at}${body}`).digest("hex")}`;
    const headers = { "twitch-eventsub-message-id": "msg-1", "twitch-eventsub-message-timestamp": at, "twitch-eventsub-message-signature": sig };
    expect(await guard.check(request({ body, headers }))).toEqual({ ok: true });
    clock.advance(2 * 60_000);
    const late = await guard.check(request({ body, headers }));
    expect(late.ok ? "" : late.reason).toMatch(/Twitch-Eventsub-Message-Timestamp: timestamp is 660s away from now, beyond the tolerance of 600s/);
  });
});
