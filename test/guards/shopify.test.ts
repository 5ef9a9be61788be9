import { describe, test } from "bun:test";
import { createHmac } from "node:crypto";
import { BODY, expectPassed, expectRefused, makeGuard, request } from "./support";

const SECRET = "shpss_0123456789abcdef";

/** Shopify's documented verification: base64 of HMAC-SHA256 over the raw body with the app's secret. */
const shopifySign = (body: string | Buffer) => createHmac("sha256", SECRET).update(body, "utf8").digest("base64");

describe("shopify guard, against the algorithm of Shopify's docs", () => {
  const { guard } = makeGuard({ kind: "shopify", secret: SECRET });

  test("a correctly signed delivery passes", async () => {
    await expectPassed(guard, request({ body: BODY, headers: { "x-shopify-hmac-sha256": shopifySign(BODY) } }));
  });

  test("raw bytes that are not UTF-8 are verified as sent", async () => {
    const body = Buffer.from([0xff, 0x00, 0xc3, 0x28]);
    await expectPassed(guard, request({ body, headers: { "x-shopify-hmac-sha256": shopifySign(body) } }));
  });

  test("a tampered body is refused with 401 and no expected signature in the reason", async () => {
    const tampered = BODY.replace("evt_1", "evt_2");
    await expectRefused(guard, request({ body: tampered, headers: { "x-shopify-hmac-sha256": shopifySign(BODY) } }), 401, /does not match/, [
      SECRET,
      shopifySign(tampered),
    ]);
  });

  test("a hex signature instead of base64 is refused", async () => {
    const hex = createHmac("sha256", SECRET).update(BODY).digest("hex");
    await expectRefused(guard, request({ body: BODY, headers: { "x-shopify-hmac-sha256": hex } }), 401, /does not match/);
  });

  test("a missing header is refused", async () => {
    await expectRefused(guard, request({ body: BODY }), 401, /missing X-Shopify-Hmac-Sha256/);
    await expectRefused(guard, request({ body: BODY, headers: { "x-shopify-hmac-sha256": " " } }), 401, /missing/);
  });
});
