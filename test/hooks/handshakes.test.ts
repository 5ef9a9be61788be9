import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac, generateKeyPairSync } from "node:crypto";
import { PRESETS } from "../../src/hooks/guards/providers";
import { signRequest } from "../../src/hooks/guards/scheme/sign";
import { startTarget, type Target } from "../helpers/target";

// Runs on every target (MAILROOM_TEST_TARGET). Each answer is the one the provider's documentation shows.

const SECRET = "handshake-secret";
const discord = generateKeyPairSync("ed25519");
const DISCORD_PUBLIC = discord.publicKey.export({ format: "der", type: "spki" }).subarray(12).toString("hex");
const DISCORD_PRIVATE = discord.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
const KINDS = ["slack", "zoom", "meta", "x", "discord", "twitch", "microsoft-graph", "dropbox", "okta"];

describe("handshakes at the catching endpoint", () => {
  let t: Target;
  let base: string;
  beforeAll(async () => {
    t = await startTarget({
      guards: KINDS.map((kind) =>
        kind === "discord"
          ? { name: kind, kind, public_key: DISCORD_PUBLIC }
          : kind === "meta"
            ? { name: kind, kind, secret: SECRET, verify_token: "my-verify-token" }
            : { name: kind, kind, secret: SECRET },
      ),
      channels: KINDS.map((kind) => ({ name: kind.replace("microsoft-graph", "graph"), guards: [kind] })),
    });
    base = await t.url();
    // Starting the executable on a fresh PostgreSQL database takes seconds on a busy machine.
  }, 60_000);
  afterAll(() => t.stop());

  /** Sends `body` signed as `kind` to its channel. */
  async function signed(kind: string, body: string, headers: Record<string, string> = {}) {
    const channel = kind.replace("microsoft-graph", "graph");
    const url = `${base}/?channel=${channel}`;
    const s = signRequest(PRESETS.get(kind)!.scheme, kind === "discord" ? { privateKey: DISCORD_PRIVATE } : { secret: SECRET }, {
      url,
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: new TextEncoder().encode(body),
    });
    return fetch(s.url, { method: "POST", headers: { "content-type": "application/json", ...headers, ...s.headers }, body });
  }
  const hooksOf = async (channel: string) => (await t.call("GET", `/v1/hooks?channel=${channel}`)).json as unknown[];
  const lastRefusal = async (channel: string) => (await t.call("GET", `/v1/refusals?channel=${channel}&limit=1`)).json[0];

  test("Slack url_verification: the challenge back, recorded with the refusals as kind handshake (status 200), never a hook", async () => {
    const res = await signed("slack", '{"token":"x","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
    expect(await hooksOf("slack")).toEqual([]);
    const answered = { kind: "handshake", guard: "slack", status: 200, reason: "handshake: url_verification answered", method: "POST" };
    expect(await lastRefusal("slack")).toMatchObject(answered);
    // `kind` filters: handshakes answered apart from refusals.
    expect((await t.call("GET", "/v1/refusals?channel=slack&kind=handshake")).json).toMatchObject([answered]);
    expect((await t.call("GET", "/v1/refusals?channel=slack&kind=refused")).json).toEqual([]);
    expect((await t.call("GET", "/v1/refusals?kind=answered")).status).toBe(400);
    // Unsigned, it is refused as any request would be.
    const forged = await fetch(`${base}/?channel=slack`, { method: "POST", body: '{"type":"url_verification","challenge":"x"}' });
    expect(forged.status).toBe(401);
    expect(await lastRefusal("slack")).toMatchObject({ kind: "refused", status: 401 });
    // The metrics count the refusal only: the handshake was answered, not refused.
    const metrics = (await t.call("GET", "/metrics")).text;
    expect(metrics).toMatch(/^mailroom_hooks_refused_total\{channel="slack",guard="slack"\} 1$/m);
  });

  test("Zoom endpoint.url_validation: plainToken and its HMAC-SHA256 (hex) with the secret token", async () => {
    const res = await signed("zoom", '{"payload":{"plainToken":"qgg8vlvZRS6UYooatFL8Aw"},"event_ts":1654503849680,"event":"endpoint.url_validation"}');
    expect(await res.json()).toEqual({
      plainToken: "qgg8vlvZRS6UYooatFL8Aw",
      encryptedToken: createHmac("sha256", SECRET).update("qgg8vlvZRS6UYooatFL8Aw").digest("hex"),
    });
    expect(await hooksOf("zoom")).toEqual([]);
  });

  test("Meta: GET hub.challenge with the configured verify_token echoes the challenge; another token is 403", async () => {
    const ok = await fetch(`${base}/?channel=meta&hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=my-verify-token`);
    expect([ok.status, await ok.text(), ok.headers.get("content-type")]).toEqual([200, "1158201444", "text/plain; charset=utf-8"]);
    const wrong = await fetch(`${base}/?channel=meta&hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=guess`);
    expect(wrong.status).toBe(403);
    expect(await hooksOf("meta")).toEqual([]);
    expect(await lastRefusal("meta")).toMatchObject({ kind: "refused", status: 403, reason: "handshake: hub.challenge refused: wrong verify_token" });
  });

  test("X CRC: response_token is sha256= and the base64 HMAC-SHA256 of crc_token with the consumer secret", async () => {
    const res = await fetch(`${base}/?channel=x&crc_token=challenge-123`);
    expect(await res.json()).toEqual({ response_token: `sha256=${createHmac("sha256", SECRET).update("challenge-123").digest("base64")}` });
  });

  test("X CRC is no signing oracle: its answer for crc_token=true does not sign a body `true`; a signed JSON object still passes", async () => {
    for (const token of ["true", "12345", "null", "abc"]) {
      const crc = (await (await fetch(`${base}/?channel=x&crc_token=${token}`)).json()) as { response_token: string };
      const replayed = await fetch(`${base}/?channel=x`, { method: "POST", headers: { "x-twitter-webhooks-signature": crc.response_token }, body: token });
      expect(replayed.status).toBe(415);
      expect(await lastRefusal("x")).toMatchObject({ kind: "refused", guard: "x", status: 415, reason: expect.stringContaining("not a JSON object") });
    }
    expect(await hooksOf("x")).toEqual([]);
    for (const body of ["[1]", '"text"', ""]) expect((await signed("x", body)).status).toBe(415);
    const event = await signed("x", '{"for_user_id":"2244994945","tweet_create_events":[]}');
    expect(event.status).toBe(200);
    expect(await hooksOf("x")).toHaveLength(1);
    // A JSON object with a wrong signature is refused as before.
    expect((await fetch(`${base}/?channel=x`, { method: "POST", headers: { "x-twitter-webhooks-signature": "sha256=AAAA" }, body: "{}" })).status).toBe(401);
  });

  test("Discord PING: PONG when signed; 401 on a bad signature, as Discord requires", async () => {
    const res = await signed("discord", '{"id":"1","application_id":"2","type":1,"version":1}');
    expect([res.status, await res.json()]).toEqual([200, { type: 1 }]);
    const forged = await fetch(`${base}/?channel=discord`, {
      method: "POST",
      headers: { "x-signature-ed25519": "00".repeat(64), "x-signature-timestamp": String(Math.floor(Date.now() / 1000)) },
      body: '{"type":1}',
    });
    expect(forged.status).toBe(401);
    expect(await hooksOf("discord")).toEqual([]);
  });

  test("Twitch webhook_callback_verification: the challenge as text; notifications are hooks", async () => {
    const body = '{"challenge":"pogchamp-kappa-360noscope-vohiyo","subscription":{"type":"channel.follow"}}';
    const res = await signed("twitch", body, { "twitch-eventsub-message-type": "webhook_callback_verification" });
    expect([res.status, await res.text()]).toEqual([200, "pogchamp-kappa-360noscope-vohiyo"]);
    const note = await signed("twitch", '{"subscription":{"type":"channel.follow"},"event":{}}', {
      "twitch-eventsub-message-type": "notification",
      "twitch-eventsub-subscription-type": "channel.follow",
    });
    expect(note.status).toBe(200);
    const hooks = (await t.call("GET", "/v1/hooks?channel=twitch&fields=summary")).json;
    expect(hooks.map((h: { event_type: string }) => h.event_type)).toEqual(["channel.follow"]);
  });

  test("Microsoft Graph validationToken and Dropbox challenge are echoed as text/plain", async () => {
    const graph = await fetch(`${base}/?channel=graph&validationToken=Validation%3A%20Testing%20client%20application%20reachability`, { method: "POST" });
    expect([graph.status, await graph.text()]).toEqual([200, "Validation: Testing client application reachability"]);
    const dropbox = await fetch(`${base}/?channel=dropbox&challenge=abc123`);
    expect([dropbox.status, await dropbox.text(), dropbox.headers.get("x-content-type-options")]).toEqual([200, "abc123", "nosniff"]);
  });

  test("Okta one-time verification: answered once the Authorization header is right", async () => {
    const ok = await fetch(`${base}/?channel=okta`, { headers: { authorization: SECRET, "x-okta-verification-challenge": "okta-challenge-1" } });
    expect([ok.status, await ok.json()]).toEqual([200, { verification: "okta-challenge-1" }]);
    const forged = await fetch(`${base}/?channel=okta`, { headers: { authorization: "guess", "x-okta-verification-challenge": "okta-challenge-1" } });
    expect(forged.status).toBe(401);
    expect(await hooksOf("okta")).toEqual([]);
  });
});
