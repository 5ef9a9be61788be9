import { expect, test } from "bun:test";
import { PRESETS } from "../../src/hooks/guards/providers";
import { signRequest } from "../../src/hooks/guards/scheme/sign";
import { createFakeClock } from "../helpers/clock";
import { makeGuard, request } from "./support";

/**
 * A scheme that signs `{form}` covers a body only as form fields (or, Twilio's, through the URL's
 * bodySHA256): its guard refuses any other body. The signer (`mailroom send --sign`) agrees with
 * it instead of sending a request its own guard refuses.
 */
const URL_ = "http://127.0.0.1:8080/?channel=c";
const encode = (s: string) => new TextEncoder().encode(s);

test("twilio: a text body is signed through bodySHA256, as a JSON one is, and passes the guard", async () => {
  const clock = createFakeClock();
  const { guard } = makeGuard({ kind: "twilio", secret: "twilio-token" }, { clock });
  for (const contentType of ["text/plain", "application/json", "application/xml"]) {
    const body = contentType === "application/json" ? '{"a":1}' : "<Response>hello</Response>";
    const headers = { "content-type": contentType };
    const signed = signRequest(
      PRESETS.get("twilio")!.scheme,
      { secret: "twilio-token" },
      { url: URL_, method: "POST", headers, body: encode(body) },
      clock.now(),
    );
    const at = signed.url;
    const verdict = await guard.check({ ...request({ body, headers: { ...headers, ...signed.headers }, query: at.slice(at.indexOf("?") + 1) }), url: at });
    expect({ contentType, verdict }).toEqual({ contentType, verdict: { ok: true } });
  }
});

test("mandrill: a body that is not a form cannot be signed, and says how to send one", () => {
  const sign = () =>
    signRequest(
      PRESETS.get("mandrill")!.scheme,
      { secret: "k" },
      { url: URL_, method: "POST", headers: { "content-type": "application/json" }, body: encode('{"a":1}') },
    );
  expect(sign).toThrow("application/x-www-form-urlencoded");
});
