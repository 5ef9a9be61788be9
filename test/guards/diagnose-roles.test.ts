/**
 * POST /v1/refusals/{id}/diagnose and its dashboard twin POST /ui/api/refusals/{id}/diagnose by role
 * (docs/diagnoses.md): an API key without scopes and a dashboard admin may; a relay (scoped) key, a
 * member and nobody may not, and reading the refusal stays open to every reader.
 */
import { expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { dashboardApp } from "../dashboard/support";
import { AUTH } from "../helpers/app";

const RELAY = { authorization: "Bearer relay-only-token-123456" };
const SCOPED = { authorization: "Bearer gh-bot-token-1234567890" };
const BODY = '{"action":"opened"}';
const signed = (secret: string) => ({
  "content-type": "application/json",
  "x-github-event": "issues",
  "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(BODY).digest("hex")}`,
});

async function appWithRefusal() {
  const app = await dashboardApp({
    api_keys: [
      { label: "test", token: AUTH.authorization.slice(7) },
      { label: "laptop", token: RELAY.authorization.slice(7), scopes: ["relay"], channels: ["gh"] },
      { label: "gh-bot", token: SCOPED.authorization.slice(7), scopes: ["read", "act"], channels: ["gh"] },
    ],
    guards: [
      { name: "gh-main", kind: "github", secret: "right-secret-8f2a" },
      { name: "gh-old", kind: "github", secret: "other-secret-77c1" },
    ],
    channels: [
      { name: "gh", guards: ["gh-main"] },
      { name: "old", guards: ["gh-old"] },
    ],
  });
  expect((await app.post("gh", BODY, signed("other-secret-77c1"))).status).toBe(401);
  const [refusal] = (await app.call("GET", "/v1/refusals?channel=gh", undefined, AUTH)).json;
  expect(refusal.diagnosis).toMatchObject({ cause: "wrong_secret", guard: "gh-old" });
  return { app, id: refusal.id as string };
}

test("the API: a key without scopes diagnoses again; a relay key gets 403, no key 401", async () => {
  const { app, id } = await appWithRefusal();
  const path = `/v1/refusals/${id}/diagnose`;
  const ok = await app.call("POST", path, undefined, AUTH);
  expect(ok.status).toBe(200);
  expect(ok.json).toMatchObject({ id, diagnosis: { cause: "wrong_secret", guard: "gh-old" } });
  const relay = await app.call("POST", path, undefined, RELAY);
  expect([relay.status, relay.json]).toEqual([403, { code: 7, message: expect.stringContaining("may only relay"), details: [] }]);
  expect((await app.call("GET", `/v1/refusals/${id}`, undefined, RELAY)).status).toBe(403);
  // A key limited to channels reads its channel's refusal but, like a member, does not diagnose it again.
  expect((await app.call("GET", `/v1/refusals/${id}`, undefined, SCOPED)).status).toBe(200);
  const scoped = await app.call("POST", path, undefined, SCOPED);
  expect([scoped.status, scoped.json.code]).toEqual([403, 7]);
  const nobody = await app.call("POST", path, undefined, {});
  expect([nobody.status, nobody.json?.code]).toEqual([401, 16]);
  expect((await app.call("POST", "/v1/refusals/01jd0000000000000000000999/diagnose", undefined, AUTH)).status).toBe(404);
});

test("the dashboard: an admin diagnoses again, a member gets 403 but reads the refusal and its diagnosis", async () => {
  const { app, id } = await appWithRefusal();
  const path = `/ui/api/refusals/${id}/diagnose`;
  const admin = await app.call("POST", path, undefined, app.admin);
  expect(admin.status).toBe(200);
  expect(admin.json).toMatchObject({ id, diagnosis: { cause: "wrong_secret" } });
  const member = await app.call("POST", path, undefined, app.member);
  expect([member.status, member.json?.code, member.json?.details]).toEqual([403, 7, []]);
  const read = await app.call("GET", `/ui/api/refusals/${id}`, undefined, app.member);
  expect(read.status).toBe(200);
  expect(read.json.diagnosis).toMatchObject({ cause: "wrong_secret", guard: "gh-old" });
  // A session's cookie without the dashboard's origin, or no session at all, is not a user.
  expect((await app.call("POST", path, undefined, { cookie: app.admin.cookie! })).status).toBe(403);
  expect((await app.call("POST", path, undefined, {})).status).toBe(401);
  // An API key does not open the dashboard's API.
  expect((await app.call("POST", path, undefined, AUTH)).status).toBe(401);
});
