/**
 * Every refusal is recorded (docs/management-api.md, Refusals): the catching endpoint's own 400,
 * 413 and 503 as well as guards', each with the request's headers and query, credentials redacted,
 * listed and shown one by one. Runs on every target (MAILROOM_TEST_TARGET).
 */
import { expect, test } from "bun:test";
import { startTarget } from "../helpers/target";

const config = {
  hooks: { max_body: "64B" },
  guards: [{ name: "tok", kind: "token", header: "X-Gate", secret_env: "SHARED_TOKEN" }],
  channels: [{ name: "gated", guards: ["tok"] }],
};

test("400, 413, 503 and guard refusals are listed with redacted headers, and each can be read by its id", async () => {
  const t = await startTarget(config, { env: { SHARED_TOKEN: "shared-secret-42" } });
  const base = await t.url();
  const send = (path: string, init: RequestInit) => fetch(`${base}${path}`, init);
  const secretHeaders = { authorization: "Bearer sender-secret-1", cookie: "sid=abc", "x-trace": "t-1" };

  expect((await send("/?channel=bad%20name", { method: "POST", body: "{}", headers: secretHeaders })).status).toBe(400);
  expect((await send("/?channel=big&api_key=k-123", { method: "POST", body: "x".repeat(100), headers: secretHeaders })).status).toBe(413);
  await t.post("quiet", "{}");
  expect((await t.call("POST", "/v1/channels/quiet/pause")).status).toBe(200);
  expect((await send("/?channel=quiet", { method: "POST", body: "{}", headers: secretHeaders })).status).toBe(503);
  expect((await send("/?channel=gated", { method: "POST", body: "{}", headers: { ...secretHeaders, "x-gate": "wrong-token-7" } })).status).toBe(401);

  const listed = (await t.call("GET", "/v1/refusals")).json as Record<string, any>[];
  expect(listed.map((r) => `${r.status} ${r.channel} ${r.guard || "-"}`)).toEqual(["401 gated tok", "503 quiet -", "413 big -", "400 bad name -"]);
  for (const r of listed) {
    expect(r.id).toMatch(/^[0-7][0-9a-hjkmnp-tv-z]{25}$/);
    expect(r.headers.authorization).toBe("[redacted]");
    expect(r.headers.cookie).toBeUndefined();
    expect(r.headers["x-trace"]).toBe("t-1");
    expect(JSON.stringify(r)).not.toContain("sender-secret-1");
    expect(await t.call("GET", `/v1/refusals/${r.id}`)).toMatchObject({ status: 200, json: r });
  }
  const [guarded, paused, large] = listed;
  expect(guarded!.headers["x-gate"]).toBe("[redacted]");
  expect(JSON.stringify(listed)).not.toContain("wrong-token-7");
  expect(large!.query).toBe("channel=big&api_key=[redacted]");
  expect(paused!.reason).toBe('channel "quiet" is paused');
  expect((await t.call("GET", "/v1/refusals?status=413")).json.map((r: { id: string }) => r.id)).toEqual([large!.id]);

  expect((await t.call("GET", "/v1/refusals/01jd0000000000000000000999")).status).toBe(404);
  expect((await t.call("GET", "/v1/refusals/nope")).status).toBe(400);
  expect((await t.call("GET", "/v1/refusals?status=99")).status).toBe(400);
  await t.stop();
}, 30_000);
