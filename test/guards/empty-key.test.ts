/**
 * A secret that is nothing but its prefix ("whsec_" with secret_prefix = "whsec_") would be an
 * empty HMAC key, which anyone can sign with: it is a config error naming the key, like a missing secret.
 */
import { expect, test } from "bun:test";
import { buildConfig } from "../../src/load-config";

for (const secret_encoding of ["utf8", "base64", "hex"]) {
  test(`a secret that is only its prefix is refused (${secret_encoding})`, () => {
    const guard = { name: "s", kind: "scheme", header: "X-Sig", secret: "whsec_", secret_prefix: "whsec_", secret_encoding };
    expect(() => buildConfig({ guards: [guard] })).toThrow(/guards\[0\]\.secret: /);
  });
}
