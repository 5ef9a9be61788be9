import { describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { PRESETS, type Preset } from "../../src/hooks/guards/providers";
import { signRequest } from "../../src/hooks/guards/scheme/sign";
import { createFakeClock } from "../helpers/clock";
import { makeGuard, request } from "./support";

/**
 * Every named provider, round trip: a request signed by the scheme's signer passes its guard, and
 * a changed body, another secret, a stale timestamp and a missing signature header are refused,
 * each with its own reason. (The signer is checked against the providers' own libraries in
 * libraries.test.ts and against their documented vectors in vectors.test.ts.)
 */

const URL_ = "http://127.0.0.1:8080/?channel=c";
const BODY = '{"id":"evt_1","type":"thing.happened","text":"héllo"}';

function keysFor(preset: Preset): { config: Record<string, string>; sign: { secret?: string; privateKey?: string }; other: Record<string, string> } {
  const a = preset.scheme.algorithm;
  if (a === "ed25519" || a === "ecdsa-p256" || a === "rsa-sha256") {
    const pair = () =>
      a === "ed25519"
        ? generateKeyPairSync("ed25519")
        : a === "ecdsa-p256"
          ? generateKeyPairSync("ec", { namedCurve: "P-256" })
          : generateKeyPairSync("rsa", { modulusLength: 2048 });
    const write = (k: ReturnType<typeof pair>["publicKey"]) => {
      const der = k.export({ format: "der", type: "spki" });
      switch (preset.scheme.publicKey) {
        case "hex-raw":
          return der.subarray(12).toString("hex");
        case "base64-raw":
          return der.subarray(12).toString("base64");
        case "base64-spki":
          return der.toString("base64");
        default:
          return k.export({ format: "pem", type: "spki" }).toString();
      }
    };
    const good = pair();
    const other = pair();
    return {
      config: { public_key: write(good.publicKey) },
      sign: { privateKey: good.privateKey.export({ format: "pem", type: "pkcs8" }).toString() },
      other: { privateKey: other.privateKey.export({ format: "pem", type: "pkcs8" }).toString() },
    };
  }
  const enc = preset.scheme.secret?.encoding;
  const secret =
    enc === "base64"
      ? `${preset.scheme.secret?.strip ?? ""}${Buffer.from("0123456789abcdef0123").toString("base64")}`
      : enc === "hex"
        ? "00112233445566778899aabbccddeeff"
        : "s3cret-for-tests";
  const wrong =
    enc === "base64"
      ? `${preset.scheme.secret?.strip ?? ""}${Buffer.from("another key, same size").toString("base64")}`
      : enc === "hex"
        ? "ffeeddccbbaa99887766554433221100"
        : "another-secret";
  return { config: { secret }, sign: { secret }, other: { secret: wrong } };
}

/** A body carrying what a scheme reads from the body (Linear's timestamp), else BODY. */
function bodyFor(preset: Preset, now: number): string {
  if (preset.scheme.timestamp?.field === "webhookTimestamp") return JSON.stringify({ type: "Issue", webhookTimestamp: now });
  return BODY;
}

const signable = [...PRESETS.values()].filter((p) => p.scheme.field === undefined);

describe("every preset signs and verifies", () => {
  test("at least 120 providers; those whose signature travels in the body are covered in vectors.test.ts", () => {
    expect(PRESETS.size).toBeGreaterThanOrEqual(120);
    expect(
      [...PRESETS.values()]
        .filter((p) => p.scheme.field !== undefined)
        .map((p) => p.kind)
        .sort(),
    ).toEqual(["figma", "mailgun", "microsoft-graph", "prismic"]);
  });

  for (const preset of signable) {
    test(`${preset.kind}: good passes; changed body, other key, stale timestamp and missing header are refused`, async () => {
      const clock = createFakeClock();
      const keys = keysFor(preset);
      const { guard } = makeGuard({ kind: preset.kind, ...keys.config }, { clock });
      const body = bodyFor(preset, clock.now());
      const contentType = preset.scheme.signed.includes("{form}") ? "application/x-www-form-urlencoded" : "application/json";
      const sendBody = contentType.includes("form") ? "Body=hello&From=%2B15551234567&To=%2B15557654321" : body;
      const base = { "content-type": contentType };
      const signed = signRequest(preset.scheme, keys.sign, { url: URL_, method: "POST", headers: base, body: new TextEncoder().encode(sendBody) }, clock.now());
      const q = signed.url.indexOf("?");
      const input = (b: string, headers: Record<string, string>, at = signed.url) => ({
        ...request({ body: b, headers, query: at.slice(at.indexOf("?") + 1) }),
        url: at,
      });
      const good = await guard.check(input(sendBody, { ...base, ...signed.headers }));
      expect({ kind: preset.kind, verdict: good }).toEqual({ kind: preset.kind, verdict: { ok: true } });
      expect(q).toBeGreaterThan(0);

      const changed = contentType.includes("form") ? sendBody.replace("hello", "HELLO") : sendBody.replace("evt_1", "evt_2").replace("Issue", "Issuf");
      // A shared token signs nothing: only the schemes that sign can tell a changed body.
      const tampered = await guard.check(input(changed, { ...base, ...signed.headers }));
      expect(tampered.ok).toBe(preset.scheme.algorithm === "token");
      if (!tampered.ok) expect(tampered.reason).toMatch(/match/);

      const other = signRequest(preset.scheme, keys.other, { url: URL_, method: "POST", headers: base, body: new TextEncoder().encode(sendBody) }, clock.now());
      const wrong = await guard.check(input(sendBody, { ...base, ...other.headers }, other.url));
      expect(wrong.ok).toBe(false);
      if (!wrong.ok) expect(wrong.reason).toMatch(preset.scheme.algorithm === "token" ? /wrong token/ : /match/);

      if (preset.scheme.timestamp && !preset.scheme.timestamp.field) {
        const old = signRequest(
          preset.scheme,
          keys.sign,
          { url: URL_, method: "POST", headers: base, body: new TextEncoder().encode(sendBody) },
          clock.now() - 3_600_000,
        );
        const stale = await guard.check(input(sendBody, { ...base, ...old.headers }, old.url));
        expect(stale.ok).toBe(false);
        if (!stale.ok) expect(stale.reason).toMatch(/beyond the tolerance/);
      }

      if (preset.scheme.header) {
        const sigHeader = preset.scheme.header.replace("{n}", "1").toLowerCase();
        const { [sigHeader]: _, ...without } = signed.headers;
        const missing = await guard.check(input(sendBody, { ...base, ...without }));
        expect(missing.ok).toBe(false);
        if (!missing.ok) expect(missing.reason).toMatch(/^missing .*header/);
      }
    });
  }
});
