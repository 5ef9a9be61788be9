import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { BODY, expectPassed, expectRefused, makeGuard, request } from "./support";

const SECRET = "generic-shared-secret";

describe("hmac guard (generic)", () => {
  test("defaults: hex HMAC-SHA256 of the body in the named header", async () => {
    const { guard } = makeGuard({ kind: "hmac", secret: SECRET, header: "X-Signature" });
    const sig = createHmac("sha256", SECRET).update(BODY).digest("hex");
    await expectPassed(guard, request({ body: BODY, headers: { "x-signature": sig } }));
    await expectPassed(guard, request({ body: BODY, headers: { "x-signature": sig.toUpperCase() } }));
    await expectRefused(guard, request({ body: BODY + " ", headers: { "x-signature": sig } }), 401, /X-Signature does not match/, [SECRET]);
    await expectRefused(guard, request({ body: BODY }), 401, /missing X-Signature header/);
  });

  test("GitLab-style sha1 with a prefix, and sha512 in base64", async () => {
    const { guard: sha1 } = makeGuard({ kind: "hmac", secret: SECRET, header: "x-sig", prefix: "sha1=", algorithm: "sha1" });
    const s1 = "sha1=" + createHmac("sha1", SECRET).update(BODY).digest("hex");
    await expectPassed(sha1, request({ body: BODY, headers: { "x-sig": s1 } }));
    await expectRefused(sha1, request({ body: BODY, headers: { "x-sig": s1.slice(5) } }), 401, /must start with "sha1="/);

    const { guard: sha512 } = makeGuard({ kind: "hmac", secret: SECRET, header: "x-sig", algorithm: "sha512", encoding: "base64" });
    const s512 = createHmac("sha512", SECRET).update(BODY).digest("base64");
    await expectPassed(sha512, request({ body: BODY, headers: { "x-sig": s512 } }));
    const wrongAlgorithm = createHmac("sha256", SECRET).update(BODY).digest("base64");
    await expectRefused(sha512, request({ body: BODY, headers: { "x-sig": wrongAlgorithm } }), 401, /does not match/, [s512]);
  });

  test("a template with a timestamp header, checked against the tolerance", async () => {
    const entry = {
      kind: "hmac",
      secret: SECRET,
      header: "x-signature",
      prefix: "v1=",
      signed: "{timestamp}.{method}.{body}",
      timestamp_header: "X-Timestamp",
      tolerance: "1m",
    };
    const { guard, clock } = makeGuard(entry);
    const at = String(Math.floor(clock.now() / 1000));
    const sign = (ts: string, body = BODY) => "v1=" + createHmac("sha256", SECRET).update(`${ts}.POST.${body}`).digest("hex");
    await expectPassed(guard, request({ body: BODY, headers: { "x-signature": sign(at), "x-timestamp": at } }));
    // tampered: timestamp changed after signing
    await expectRefused(guard, request({ body: BODY, headers: { "x-signature": sign(at), "x-timestamp": String(Number(at) + 1) } }), 401, /does not match/);
    // expired
    clock.advance(61_000);
    await expectRefused(guard, request({ body: BODY, headers: { "x-signature": sign(at), "x-timestamp": at } }), 401, /X-Timestamp: .*tolerance of 60s/);
    // missing
    await expectRefused(guard, request({ body: BODY, headers: { "x-signature": sign(at) } }), 401, /missing X-Timestamp header/);
  });

  test("{header:NAME} and a base64 secret", async () => {
    const key = Buffer.from("raw key bytes \x00\x01");
    const entry = {
      kind: "hmac",
      secret: key.toString("base64"),
      secret_encoding: "base64",
      header: "x-sig",
      encoding: "base64url",
      signed: "{header:x-request-id}:{body}",
    };
    const { guard } = makeGuard(entry);
    const sig = createHmac("sha256", key).update(`req-1:${BODY}`).digest("base64url");
    await expectPassed(guard, request({ body: BODY, headers: { "x-sig": sig, "x-request-id": "req-1" } }));
    await expectRefused(guard, request({ body: BODY, headers: { "x-sig": sig, "x-request-id": "req-2" } }), 401, /does not match/);
    await expectRefused(guard, request({ body: BODY, headers: { "x-sig": sig } }), 401, /missing x-request-id header/);
  });

  test("templates that cannot work are config errors naming the key", () => {
    const base = { kind: "hmac", secret: SECRET, header: "x-sig" };
    expect(() => makeGuard({ ...base, signed: "{timestamp}.{body}" })).toThrow(/guards\[0\]\.signed: \{timestamp\} needs timestamp_header/);
    expect(() => makeGuard({ ...base, signed: "{timestamp}", timestamp_header: "x-t" })).toThrow(/\{body\} exactly once/);
    expect(() => makeGuard({ ...base, signed: "{body}{path}" })).toThrow(/unknown placeholder \{path\}/);
    expect(() => makeGuard({ ...base, secret: "zz", secret_encoding: "hex" })).toThrow(/guards\[0\]\.secret: is not hex/);
  });
});
