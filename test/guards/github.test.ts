import { describe, test } from "bun:test";
import { sign } from "@octokit/webhooks-methods";
import { BODY, expectPassed, expectRefused, makeGuard, request } from "./support";

const SECRET = "It's a Secret to Everybody";

describe("github guard, against @octokit/webhooks-methods sign()", () => {
  const { guard } = makeGuard({ kind: "github", secret: SECRET });

  test("a delivery signed by Octokit passes", async () => {
    const signature = await sign(SECRET, BODY);
    await expectPassed(guard, request({ body: BODY, headers: { "x-hub-signature-256": signature } }));
  });

  test("GitHub's documented example signature passes", async () => {
    // From docs.github.com "Validating webhook deliveries": secret and payload above give this digest.
    const signature = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
    await expectPassed(guard, request({ body: "Hello, World!", headers: { "x-hub-signature-256": signature } }));
  });

  test("a tampered body is refused with 401 and no expected signature in the reason", async () => {
    const signature = await sign(SECRET, BODY);
    const expected = (await sign(SECRET, BODY.replace("1", "2"))).slice(7);
    await expectRefused(guard, request({ body: BODY.replace("1", "2"), headers: { "x-hub-signature-256": signature } }), 401, /does not match/, [
      SECRET,
      expected,
    ]);
  });

  test("a signature made with another secret is refused", async () => {
    const signature = await sign("another secret", BODY);
    await expectRefused(guard, request({ body: BODY, headers: { "x-hub-signature-256": signature } }), 401, /does not match/);
  });

  test("a missing header, or only the old SHA-1 X-Hub-Signature, is refused", async () => {
    await expectRefused(guard, request({ body: BODY }), 401, /missing X-Hub-Signature-256/);
    await expectRefused(guard, request({ body: BODY, headers: { "x-hub-signature": "sha1=abc" } }), 401, /missing X-Hub-Signature-256/);
  });

  test("a header without the sha256= prefix is refused", async () => {
    const signature = (await sign(SECRET, BODY)).slice(7);
    await expectRefused(guard, request({ body: BODY, headers: { "x-hub-signature-256": signature } }), 401, /sha256=<hex>/);
  });

  test("a secret from the environment (secret_env) works like an inline one", async () => {
    const { guard: fromEnv } = makeGuard({ kind: "github", secret_env: "GH_SECRET" }, { env: { GH_SECRET: SECRET } });
    await expectPassed(fromEnv, request({ body: BODY, headers: { "x-hub-signature-256": await sign(SECRET, BODY) } }));
  });
});
