/**
 * What a signature refusal keeps for its diagnosis (docs/diagnoses.md): the body whole up to the
 * channel's max body (not a fixed 256 KiB), the signature headers but not Authorization,
 * Proxy-Authorization or cookies; no answer or page data shows the signature or a credential, and
 * the kept request goes with its refusal. A refusal by size keeps nothing.
 */
import { expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { dashboardApp } from "../dashboard/support";
import { AUTH } from "../helpers/app";

const S = { right: "right-secret-8f2a", other: "other-secret-77c1" };
const BEARER = "Bearer leaked-bearer-token-5d1e";
const PROXY = "Basic cHJveHk6bGVha2VkLXByb3h5";
const COOKIE = "session=leaked-cookie-value-9a0b";
const sig = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/** A JSON body of about `bytes`. */
const large = (bytes: number) =>
  JSON.stringify({ action: "opened", items: Array.from({ length: Math.ceil(bytes / 30) }, (_, i) => ({ n: i, text: "0123456789abcdef" })) });

async function app() {
  return dashboardApp({
    hooks: { max_body: "2MB" },
    guards: [
      { name: "gh-main", kind: "github", secret: S.right },
      { name: "gh-old", kind: "github", secret: S.other },
      { name: "small", kind: "max-body", max: "1KB" },
    ],
    channels: [
      { name: "gh", guards: ["gh-main"] },
      { name: "old", guards: ["gh-old"] },
      { name: "tiny", guards: ["small", "gh-main"] },
    ],
  });
}

test("a signed body of 1 MiB (over 256 KiB, within the channel's max body) is kept and diagnosed, and again", async () => {
  const a = await app();
  const body = large(1024 * 1024);
  expect(body.length).toBeGreaterThan(1024 * 1024);
  expect((await a.post("gh", body, { "x-github-event": "issues", "x-hub-signature-256": sig(S.other, body) })).status).toBe(401);
  const [r] = (await a.call("GET", "/v1/refusals?channel=gh", undefined, AUTH)).json;
  expect(r.diagnosis).toMatchObject({ cause: "wrong_secret", guard: "gh-old" });
  const again = await a.call("POST", `/v1/refusals/${r.id}/diagnose`, undefined, AUTH);
  expect(again.json.diagnosis).toMatchObject({ cause: "wrong_secret", guard: "gh-old" });
  const signed = large(300 * 1024);
  const pretty = JSON.stringify(JSON.parse(signed), null, 2);
  expect((await a.post("gh", pretty, { "x-github-event": "issues", "x-hub-signature-256": sig(S.right, signed) })).status).toBe(401);
  const [changed] = (await a.call("GET", "/v1/refusals?channel=gh&limit=1", undefined, AUTH)).json;
  expect(changed.diagnosis).toMatchObject({ cause: "body_changed" });
});

test("a refusal by size keeps nothing: no request, no diagnosis, even when asked again", async () => {
  const a = await app();
  const body = large(4096);
  expect((await a.post("tiny", body, { "x-hub-signature-256": sig(S.other, body) })).status).toBe(413);
  const [r] = (await a.call("GET", "/v1/refusals?channel=tiny", undefined, AUTH)).json;
  expect([r.status, r.diagnosis]).toEqual([413, null]);
  expect(await a.storage.refusals.savedRequest(r.id)).toBeUndefined();
  expect((await a.call("POST", `/v1/refusals/${r.id}/diagnose`, undefined, AUTH)).json.diagnosis).toBeNull();
});

test("the kept request has the signature but no credential; no answer shows either; it goes with its refusal", async () => {
  const a = await app();
  const body = '{"action":"opened"}';
  const signature = sig(S.other, body);
  const headers = {
    "x-github-event": "issues",
    "x-hub-signature-256": signature,
    authorization: BEARER,
    "proxy-authorization": PROXY,
    cookie: COOKIE,
  };
  expect((await a.post("gh", body, headers)).status).toBe(401);
  const [listed] = (await a.call("GET", "/v1/refusals?channel=gh", undefined, AUTH)).json;
  expect(listed.diagnosis).toMatchObject({ cause: "wrong_secret" });
  expect(listed.headers).toMatchObject({ "x-hub-signature-256": "[redacted]", authorization: "[redacted]", "proxy-authorization": "[redacted]" });

  const saved = JSON.parse((await a.storage.refusals.savedRequest(listed.id))!) as { headers: [string, string][] };
  const names = saved.headers.map(([n]) => n);
  expect(names).toContain("x-hub-signature-256");
  for (const gone of ["authorization", "proxy-authorization", "cookie"]) expect(names).not.toContain(gone);
  expect(JSON.stringify(saved)).not.toContain("leaked");

  const secret = (text: string) => [signature, signature.slice(7), BEARER, "leaked", S.right, S.other].filter((s) => text.includes(s));
  const answers = [
    await a.call("GET", "/v1/refusals", undefined, AUTH),
    await a.call("GET", `/v1/refusals/${listed.id}`, undefined, AUTH),
    await a.call("POST", `/v1/refusals/${listed.id}/diagnose`, undefined, AUTH),
    await a.call("GET", "/ui/api/refusals", undefined, a.admin),
    await a.call("GET", `/ui/api/refusals/${listed.id}`, undefined, a.admin),
    await a.call("POST", `/ui/api/refusals/${listed.id}/diagnose`, undefined, a.admin),
    await a.call("GET", "/ui/api/refusals", undefined, a.member),
  ];
  for (const r of answers) expect([r.status, secret(r.text)]).toEqual([200, []]);

  // Retention: the newest 1000 refusals are kept, their requests with them.
  const many = Array.from({ length: 1000 }, (_, i) => a.post("gh", `{"n":${i}}`, { "x-hub-signature-256": sig(S.other, `{"n":${i}}`) }));
  expect((await Promise.all(many)).every((r) => r.status === 401)).toBe(true);
  await a.call("GET", "/v1/refusals?limit=1", undefined, AUTH);
  expect((await a.call("GET", `/v1/refusals/${listed.id}`, undefined, AUTH)).status).toBe(404);
  expect(await a.storage.refusals.savedRequest(listed.id)).toBeUndefined();
});
