/**
 * X's CRC answers HMAC-SHA256(consumer secret, crc_token) to anyone, before any guard: the same
 * HMAC that signs X's events. A crc_token that could be an event body (JSON, anything beyond a
 * token's characters) is therefore not answered, so nobody can have the endpoint sign a forged event.
 */
import { expect, test } from "bun:test";
import { startTarget } from "../helpers/target";

test("a CRC whose crc_token is an event body is not answered, and the forged event is refused", async () => {
  const t = await startTarget({ guards: [{ name: "x", kind: "x", secret: "consumer-secret" }], channels: [{ name: "x", guards: ["x"] }] });
  const base = await t.url();
  const forged = JSON.stringify({ for_user_id: "1", tweet_create_events: [{ text: "forged" }] });
  const crc = await fetch(`${base}/?channel=x&crc_token=${encodeURIComponent(forged)}`);
  const answer = crc.status === 200 ? ((await crc.json()) as { response_token?: string }) : {};
  expect(answer.response_token).toBeUndefined();
  const post = await fetch(`${base}/?channel=x`, {
    method: "POST",
    body: forged,
    headers: { "content-type": "application/json", "x-twitter-webhooks-signature": answer.response_token ?? "sha256=AAAA" },
  });
  expect(post.status).toBe(401);
  // X's own tokens are still answered.
  const ok = await fetch(`${base}/?channel=x&crc_token=${encodeURIComponent("MzQ1Njc4OTAxMjM0NTY3ODkw+/=_-.")}`);
  expect(((await ok.json()) as { response_token: string }).response_token).toStartWith("sha256=");
  await t.stop();
}, 30_000);
