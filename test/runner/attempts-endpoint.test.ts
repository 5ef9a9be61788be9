import { afterEach, describe, expect, test } from "bun:test";
import { createReceiver } from "./receiver";
import { createRunnerApp, forward } from "./setup";

const ATTEMPT_KEYS = [
  "attempt",
  "chaos",
  "due_at",
  "error",
  "excerpt",
  "exit_code",
  "finished_at",
  "handler",
  "http_status",
  "outcome",
  "resigned",
  "started_at",
];
const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
});

describe("GET /v1/hooks/{id}/attempts", () => {
  test("lists every attempt oldest first with exact properties; the Hook resource is unchanged", async () => {
    const target = createReceiver({ status: 500, body: "try later" }, { status: 200, body: "ok" });
    stops.push(target.stop);
    const t = createRunnerApp({ handlers: [forward("app", target.url)], channels: [{ name: "c", handlers: ["app"] }] });
    const id = await t.send("c");
    const t0 = t.clock.now();
    let res = await t.call("GET", `/v1/hooks/${id}/attempts`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      {
        handler: "app",
        attempt: 1,
        outcome: "queued",
        due_at: new Date(t0).toISOString(),
        started_at: null,
        finished_at: null,
        http_status: null,
        exit_code: null,
        excerpt: "",
        error: "",
        resigned: null,
        chaos: null,
      },
    ]);
    await t.runner.tick();
    t.clock.advance(1000);
    await t.runner.tick();
    res = await t.call("GET", `/v1/hooks/${id}/attempts`);
    expect(res.json).toHaveLength(2);
    for (const a of res.json) expect(Object.keys(a).sort()).toEqual(ATTEMPT_KEYS);
    expect(res.json[0]).toMatchObject({
      attempt: 1,
      outcome: "failed",
      http_status: 500,
      excerpt: "try later",
      error: "answered 500 Internal Server Error",
      started_at: new Date(t0).toISOString(),
      finished_at: new Date(t0).toISOString(),
    });
    expect(res.json[1]).toMatchObject({ attempt: 2, outcome: "succeeded", due_at: new Date(t0 + 1000).toISOString(), http_status: 200 });
    const hook = await t.hook(id);
    expect(Object.keys(hook)).not.toContain("attempts");
  });

  test("a hook of a channel without handlers has none", async () => {
    const t = createRunnerApp({ handlers: [], channels: [] });
    const id = await t.send("plain");
    expect((await t.call("GET", `/v1/hooks/${id}/attempts`)).json).toEqual([]);
  });

  test("404 for an unknown hook, 400 for a bad id, 401 without a token, in the webhook error body", async () => {
    const t = createRunnerApp({ handlers: [], channels: [] });
    const missing = await t.call("GET", "/v1/hooks/01aaaaaaaaaaaaaaaaaaaaaaaa/attempts");
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 5, message: 'hook "01aaaaaaaaaaaaaaaaaaaaaaaa" not found', details: [] });
    const bad = await t.call("GET", "/v1/hooks/NOT-AN-ID/attempts");
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ code: 3, message: expect.stringContaining("id"), details: [] });
    const anonymous = await t.call("GET", "/v1/hooks/01aaaaaaaaaaaaaaaaaaaaaaaa/attempts", undefined, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.code).toBe(16);
  });
});
