import { describe, test } from "bun:test";
import { createHmac } from "node:crypto";
import { BODY, expectPassed, expectRefused, makeGuard, request } from "./support";

const SECRET = "8f742231b10e8888abcd99yyyzzz85a5";

/**
 * Slack's documented signing ("Verifying requests from Slack"): `v0=` + hex HMAC-SHA256 of
 * `v0:<X-Slack-Request-Timestamp>:<raw body>` with the signing secret.
 */
function slackHeaders(body: string, timestamp: number, secret = SECRET) {
  const base = `v0:${timestamp}:${body}`;
  return {
    "x-slack-request-timestamp": String(timestamp),
    "x-slack-signature": "v0=" + createHmac("sha256", secret).update(base).digest("hex"),
  };
}

describe("slack guard, against Slack's documented signing", () => {
  const { guard, clock } = makeGuard({ kind: "slack", secret: SECRET });
  const now = () => Math.floor(clock.now() / 1000);
  const FORM = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&command=%2Fweather&text=94070";

  test("Slack's documented example passes", async () => {
    // docs.slack.com: timestamp 1531420618, this body and secret give this signature.
    const { guard: g, clock: c } = makeGuard({ kind: "slack", secret: SECRET });
    c.set(1531420618_000);
    const body =
      "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    const headers = {
      "x-slack-request-timestamp": "1531420618",
      "x-slack-signature": "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
    };
    await expectPassed(g, request({ body, headers }));
  });

  test("a signed slash command passes", async () => {
    await expectPassed(guard, request({ body: FORM, headers: slackHeaders(FORM, now()) }));
  });

  test("a tampered body or timestamp is refused with 401 and no expected signature", async () => {
    const tampered = FORM.replace("94070", "94071");
    const expected = slackHeaders(tampered, now())["x-slack-signature"].slice(3);
    await expectRefused(guard, request({ body: tampered, headers: slackHeaders(FORM, now()) }), 401, /does not match/, [SECRET, expected]);
    const headers = { ...slackHeaders(FORM, now()), "x-slack-request-timestamp": String(now() - 1) };
    await expectRefused(guard, request({ body: FORM, headers }), 401, /does not match/);
  });

  test("a request older than the tolerance (a replay) is refused", async () => {
    await expectRefused(guard, request({ body: FORM, headers: slackHeaders(FORM, now() - 301) }), 401, /X-Slack-Request-Timestamp: .*tolerance of 300s/);
  });

  test("missing headers and a wrong version prefix are refused", async () => {
    await expectRefused(guard, request({ body: FORM }), 401, /missing X-Slack-Request-Timestamp, X-Slack-Signature headers/);
    const { "x-slack-request-timestamp": _, ...noTime } = slackHeaders(FORM, now());
    await expectRefused(guard, request({ body: FORM, headers: noTime }), 401, /missing X-Slack-Request-Timestamp/);
    const v1 = { ...slackHeaders(FORM, now()) };
    v1["x-slack-signature"] = v1["x-slack-signature"].replace("v0=", "v1=");
    await expectRefused(guard, request({ body: FORM, headers: v1 }), 401, /v0=<hex>/);
  });
});
