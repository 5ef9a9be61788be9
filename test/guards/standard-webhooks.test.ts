import { describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { createFakeClock } from "../helpers/clock";
import { BODY, expectPassed, expectRefused, makeGuard, request } from "./support";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

describe("standard-webhooks guard, against the standardwebhooks library's Webhook.sign", () => {
  const { guard, clock } = makeGuard({ kind: "standard-webhooks", secret: SECRET });
  const wh = new Webhook(SECRET);
  const signed = (opts: { id?: string; at?: number; body?: string; prefix?: string } = {}) => {
    const at = opts.at ?? clock.now();
    const id = opts.id ?? "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W";
    const p = opts.prefix ?? "webhook";
    return {
      [`${p}-id`]: id,
      [`${p}-timestamp`]: String(Math.floor(at / 1000)),
      [`${p}-signature`]: wh.sign(id, new Date(at), opts.body ?? BODY),
    };
  };

  test("a message signed by the library passes, and the library's verifier agrees", async () => {
    const headers = signed();
    await expectPassed(guard, request({ body: BODY, headers }));
    // The library checks the timestamp against the real time: sign now, and let a guard on a clock
    // at the real time judge the very headers the library's verifier accepts.
    const live = signed({ at: Date.now() });
    const { guard: onRealTime } = makeGuard({ kind: "standard-webhooks", secret: SECRET }, { clock: createFakeClock(Date.now()) });
    expect(() => wh.verify(BODY, live)).not.toThrow();
    await expectPassed(onRealTime, request({ body: BODY, headers: live }));
  });

  test("Svix's header names (svix-id, svix-timestamp, svix-signature) are accepted", async () => {
    await expectPassed(guard, request({ body: BODY, headers: signed({ prefix: "svix" }) }));
  });

  test("several space-separated signatures pass when one v1 matches; other versions are ignored", async () => {
    const headers = signed();
    const other = new Webhook("whsec_" + Buffer.from("another key, 24 bytes!!!").toString("base64"));
    const wrong = other.sign(headers["webhook-id"]!, new Date(clock.now()), BODY);
    headers["webhook-signature"] = `v1a,AAAA ${wrong} ${headers["webhook-signature"]}`;
    await expectPassed(guard, request({ body: BODY, headers }));
  });

  test("a tampered body or id is refused with 401 and no expected signature in the reason", async () => {
    const tampered = BODY.replace("evt_1", "evt_2");
    const expected = signed({ body: tampered })["webhook-signature"]!.slice(3);
    await expectRefused(guard, request({ body: tampered, headers: signed() }), 401, /matches the body/, [SECRET, SECRET.slice(6), expected]);
    await expectRefused(guard, request({ body: BODY, headers: { ...signed(), "webhook-id": "msg_other" } }), 401, /matches the body/);
  });

  test("a timestamp beyond the tolerance is refused, in the past and in the future", async () => {
    await expectPassed(guard, request({ body: BODY, headers: signed({ at: clock.now() - 300_000 }) }));
    await expectRefused(guard, request({ body: BODY, headers: signed({ at: clock.now() - 301_000 }) }), 401, /webhook-timestamp: .*tolerance of 300s/);
    await expectRefused(guard, request({ body: BODY, headers: signed({ at: clock.now() + 301_000 }) }), 401, /tolerance/);
  });

  test("missing headers are named; a signature list without v1 is refused", async () => {
    const { "webhook-signature": _, ...rest } = signed();
    await expectRefused(guard, request({ body: BODY, headers: rest }), 401, /missing webhook-signature header/);
    await expectRefused(guard, request({ body: BODY }), 401, /missing webhook-id, webhook-timestamp, webhook-signature headers/);
    await expectRefused(guard, request({ body: BODY, headers: { ...signed(), "webhook-signature": "v2,abc" } }), 401, /no v1 signature/);
  });

  test("a secret that is not base64 after whsec_ is a config error naming the key", () => {
    expect(() => makeGuard({ kind: "standard-webhooks", secret: "whsec_not base64!" })).toThrow(/guards\[0\]\.secret: must be "whsec_" followed by base64/);
  });
});
