import { describe, expect, test } from "bun:test";
import { receivers } from "./receiver";
import { createRunnerApp, forward } from "./setup";

const receiver = receivers();

describe("retries", () => {
  test("a failed attempt is retried after the backoff delay, doubling, with the injected jitter", async () => {
    const target = receiver({ status: 500 }, { status: 500 }, { status: 500 }, { status: 200 });
    // random = 0.5: the delay is 3/4 of the ceiling, never below initial: 1s, 1.5s, 3s.
    const t = createRunnerApp({ handlers: [forward("app", target.url, { max_attempts: 5 })], channels: [{ name: "c", handlers: ["app"] }] });
    const id = await t.send("c");

    await t.runner.tick();
    expect(target.received).toHaveLength(1);
    for (const [attempt, delay] of [
      [2, 1000],
      [3, 1500],
      [4, 3000],
    ] as const) {
      expect(await t.dueIn(id, "app")).toBe(delay);
      t.clock.advance(delay - 1);
      await t.runner.tick();
      expect(target.received).toHaveLength(attempt - 1); // not due yet
      t.clock.advance(1);
      await t.runner.tick();
      expect(target.received).toHaveLength(attempt);
      expect(target.received[attempt - 1]!.headers["x-mailroom-attempt"]).toBe(String(attempt));
    }
    expect((await t.hook(id)).status).toBe("handled");
    const all = await t.attempts(id);
    expect(all.map((a) => [a.attempt, a.outcome, a.http_status])).toEqual([
      [1, "failed", 500],
      [2, "failed", 500],
      [3, "failed", 500],
      [4, "succeeded", 200],
    ]);
    for (const a of all) expect(a.finished_at).not.toBeNull();
  });

  test("the jitter source decides where in [ceiling/2, ceiling] the delay falls", async () => {
    const target = receiver({ status: 500 });
    const t = createRunnerApp(
      { handlers: [forward("app", target.url, { max_attempts: 5, backoff: { initial: "2s", max: "5s" } })], channels: [{ name: "c", handlers: ["app"] }] },
      { random: () => 0.999 },
    );
    const id = await t.send("c");
    await t.runner.tick();
    expect(await t.dueIn(id, "app")).toBe(2000);
    t.clock.advance(2000);
    await t.runner.tick();
    expect(await t.dueIn(id, "app")).toBe(3998); // ceiling 4s
    t.clock.advance(3998);
    await t.runner.tick();
    expect(await t.dueIn(id, "app")).toBe(4998); // ceiling capped at max (5s)
  });

  test("giving up fails the hook with the handler as actor; the other handlers keep going", async () => {
    const bad = receiver({ status: 500, body: "boom" });
    const flaky = receiver({ status: 503 }, { status: 200 });
    const t = createRunnerApp({
      handlers: [forward("bad", bad.url, { max_attempts: 2 }), forward("flaky", flaky.url, { backoff: { initial: "5s", max: "10s" } })],
      channels: [{ name: "c", handlers: ["bad", "flaky"] }],
    });
    const id = await t.send("c");
    await t.runner.tick();
    t.clock.advance(1000);
    await t.runner.tick();
    expect(bad.received).toHaveLength(2);
    let hook = await t.hook(id);
    expect(hook.status).toBe("failed");
    expect(hook.finalized_at).toBeUndefined();
    expect(hook.events).toEqual([
      { kind: "failed", actor: "bad", message: "gave up after 2 attempts: answered 500 Internal Server Error", created_at: expect.any(String) },
    ]);
    expect((await t.attempts(id)).filter((a) => a.handler === "bad").map((a) => a.outcome)).toEqual(["failed", "gave_up"]);

    // flaky is still queued, runs, succeeds; the hook stays failed and nothing of "bad" runs again.
    t.clock.advance(10_000);
    await t.runner.tick();
    expect(flaky.received).toHaveLength(2);
    expect(bad.received).toHaveLength(2);
    hook = await t.hook(id);
    expect(hook.status).toBe("failed");
    expect(hook.events).toHaveLength(1);
    const stats = (await t.call("GET", "/v1/channels/c")).json.stats;
    expect(stats).toEqual({ pending: "0", handled: "0", failed: "1", discarded: "0" });
  });

  test("Retry-After in seconds or as an HTTP date replaces the backoff", async () => {
    const t0 = Date.parse("2026-01-01T00:00:00Z");
    const target = receiver(
      { status: 429, headers: { "retry-after": "120" } },
      { status: 503, headers: { "retry-after": new Date(t0 + 120_000 + 300_000).toUTCString() } },
      { status: 200 },
    );
    const t = createRunnerApp({ handlers: [forward("app", target.url)], channels: [{ name: "c", handlers: ["app"] }] });
    expect(t.clock.now()).toBe(t0);
    const id = await t.send("c");
    await t.runner.tick();
    expect(await t.dueIn(id, "app")).toBe(120_000);
    t.clock.advance(120_000);
    await t.runner.tick();
    expect(await t.dueIn(id, "app")).toBe(300_000);
    t.clock.advance(299_999);
    await t.runner.tick();
    expect(target.received).toHaveLength(2);
    t.clock.advance(1);
    await t.runner.tick();
    expect(target.received).toHaveLength(3);
    expect((await t.hook(id)).status).toBe("handled");
  });

  test("the concurrency limit bounds attempts of one handler running at once; tick still runs them all", async () => {
    for (const concurrency of [1, 3]) {
      const target = receiver({ status: 200, hold: 30 });
      const t = createRunnerApp({ handlers: [forward("app", target.url, { concurrency })], channels: [{ name: "c", handlers: ["app"] }] });
      const ids = await Promise.all([1, 2, 3, 4, 5].map(() => t.send("c")));
      await t.runner.tick();
      expect(target.received).toHaveLength(5);
      expect(target.mostAtOnce()).toBe(concurrency);
      for (const id of ids) expect((await t.hook(id)).status).toBe("handled");
    }
  });
});
