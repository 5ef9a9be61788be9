/**
 * A refused request's headers are kept with credentials redacted whatever the channel: names that
 * say they carry one (x-authorization, Cloudflare's cf-webhook-auth, x-credentials, x-cookie) are
 * redacted even when no guard of the channel names them, e.g. for a bad channel name.
 */
import { expect, test } from "bun:test";
import { startTarget } from "../helpers/target";

test("credential-like header names are redacted in refusals made before any guard", async () => {
  const t = await startTarget({});
  const headers = {
    "x-authorization": "Bearer s3cret-a",
    "cf-webhook-auth": "s3cret-b",
    "x-credentials": "s3cret-c",
    "x-session-cookie": "s3cret-d",
    "x-trace": "kept-1",
  };
  const sent = await fetch(`${await t.url()}/?channel=Bad%20Name`, { method: "POST", body: "{}", headers });
  expect(sent.status).toBe(400);
  const [refusal] = (await t.call("GET", "/v1/refusals")).json as { headers: Record<string, string> }[];
  expect(refusal!.headers["x-trace"]).toBe("kept-1");
  for (const name of Object.keys(headers).filter((n) => n !== "x-trace")) expect(refusal!.headers[name]).toBe("[redacted]");
  expect(JSON.stringify(refusal)).not.toContain("s3cret");
  await t.stop();
}, 30_000);
