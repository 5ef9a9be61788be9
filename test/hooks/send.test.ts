/**
 * Edit and send (docs/management-api.md): a hook sent into a channel as a new hook that links to
 * its source, and a hook replayed to a URL with the answer shown. Runs on every target.
 */
import { expect, test } from "bun:test";
import { startTarget } from "../helpers/target";
import { createReceiver } from "../runner/receiver";

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString("base64");

test("send: a new hook in the channel, edited as asked, linked to its source, searchable; errors are 400 and 404", async () => {
  const t = await startTarget(
    { guards: [{ name: "tok", kind: "token", header: "X-Gate", secret_env: "GATE" }], channels: [{ name: "gated", guards: ["tok"] }] },
    { env: { GATE: "g-secret" } },
  );
  const source = ((await (await t.post("orders", '{"order":"ord_9"}', { "content-type": "application/json", "x-trace": "1" })).json()) as { id: string }).id;
  const sent = await t.call("POST", `/v1/hooks/${source}/send`, { channel: "staging", method: "PUT", body: b64('{"order":"ord_10"}') });
  expect(sent.status).toBe(200);
  expect(sent.json).toMatchObject({ channel: "staging", method: "PUT", status: "pending", source_id: source, payload: { order: "ord_10" } });
  expect(sent.json.headers["x-trace"]).toBe("1");
  expect(sent.json.id).not.toBe(source);
  // source_id is an extension field: GetHook answers it when asked (include=extensions).
  expect((await t.call("GET", `/v1/hooks/${sent.json.id}?include=extensions`)).json.source_id).toBe(source);
  expect((await t.call("GET", `/v1/hooks/${sent.json.id}`)).json.source_id).toBeUndefined();
  expect((await t.call("GET", `/v1/hooks/${source}?include=extensions`)).json.source_id).toBeUndefined();
  expect((await t.call("GET", "/v1/hooks?q=ord_10")).json.map((h: { id: string }) => h.id)).toEqual([sent.json.id]);
  expect((await t.call("GET", "/v1/channels/staging")).json.stats.pending).toBe("1");
  // Unchanged fields are the source's; a channel's guards do not judge what a user sends.
  const copy = await t.call("POST", `/v1/hooks/${source}/send`, { channel: "gated", headers: { "content-type": "text/plain" } });
  expect(copy.json).toMatchObject({ channel: "gated", method: "POST", headers: { "content-type": "text/plain" }, body: b64('{"order":"ord_9"}') });

  expect((await t.call("POST", "/v1/hooks/01jd3q9x0c2m8t6v4r2k8p1w5z/send", { channel: "x" })).status).toBe(404);
  expect((await t.call("POST", `/v1/hooks/${source}/send`, { channel: "Bad Name" })).status).toBe(400);
  expect((await t.call("POST", `/v1/hooks/${source}/send`, { channel: "x", body: "not base64!" })).status).toBe(400);
  expect((await t.call("POST", `/v1/hooks/${source}/send`, { channel: "x", method: "post" })).status).toBe(400);
  await t.call("POST", "/v1/channels/staging/pause");
  const paused = await t.call("POST", `/v1/hooks/${source}/send`, { channel: "staging" });
  expect(paused.status).toBe(400);
  expect(paused.json.message).toContain("paused");
  await t.stop();
}, 30_000);

test("replay: sends the hook (edited) to a URL and answers what came back; an unreachable target is an answer with error", async () => {
  const t = await startTarget(
    { guards: [{ name: "tok", kind: "token", header: "X-Gate", secret_env: "GATE" }], channels: [{ name: "gated", guards: ["tok"] }] },
    { env: { GATE: "g-secret" } },
  );
  const app = createReceiver({ status: 201, body: '{"ok":true}', headers: { "x-app": "yes" } });
  const source = (
    (await (await t.post("gated", "a=1", { "x-gate": "g-secret", "content-type": "application/x-www-form-urlencoded" })).json()) as { id: string }
  ).id;
  const r = await t.call("POST", `/v1/hooks/${source}/replay`, { url: app.url });
  expect(r.status).toBe(200);
  expect(r.json).toMatchObject({ status: 201, body: b64('{"ok":true}'), truncated: false, headers: { "x-app": "yes" } });
  expect(r.json.duration_ms).toBeGreaterThanOrEqual(0);
  expect(app.received[0]!.method).toBe("POST");
  expect(new TextDecoder().decode(app.received[0]!.body)).toBe("a=1");
  expect(app.received[0]!.headers["x-gate"]).toBeUndefined(); // stored redacted: never sent
  const edited = await t.call("POST", `/v1/hooks/${source}/replay`, { url: app.url, method: "PATCH", headers: { "x-edited": "1" }, body: b64("b=2") });
  expect(edited.json.status).toBe(201);
  expect(app.received[1]).toMatchObject({ method: "PATCH", headers: expect.objectContaining({ "x-edited": "1" }) });
  expect(new TextDecoder().decode(app.received[1]!.body)).toBe("b=2");
  app.stop();
  const gone = await t.call("POST", `/v1/hooks/${source}/replay`, { url: app.url });
  expect(gone.status).toBe(200);
  expect(typeof gone.json.error).toBe("string");
  expect((await t.call("POST", `/v1/hooks/${source}/replay`, { url: "ftp://example.com/x" })).status).toBe(400);
  expect((await t.call("POST", `/v1/hooks/${source}/replay`, { url: app.url, headers: { "bad name": "x" } })).status).toBe(400);
  expect((await t.call("POST", "/v1/hooks/01jd3q9x0c2m8t6v4r2k8p1w5z/replay", { url: app.url })).status).toBe(404);
  await t.stop();
}, 30_000);
