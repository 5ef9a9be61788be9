import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { receivers } from "./receiver";
import { createRunnerApp, forward } from "./setup";

const receiver = receivers();
/** Other things to undo after each test: temporary folders, apps, timers. */
const cleanup: (() => void)[] = [];
afterEach(() => {
  while (cleanup.length) cleanup.pop()!();
});

describe("RetryHook, DiscardHook, delete", () => {
  test("RetryHook after a failure runs again only the handlers whose last attempt failed", async () => {
    const good = receiver({ status: 200 });
    const bad = receiver({ status: 500 });
    const t = createRunnerApp({
      handlers: [forward("good", good.url), forward("bad", bad.url, { max_attempts: 1 })],
      channels: [{ name: "c", handlers: ["good", "bad"] }],
    });
    const id = await t.send("c");
    await t.runner.tick();
    expect((await t.hook(id)).status).toBe("failed");
    expect([good.received.length, bad.received.length]).toEqual([1, 1]);

    bad.answer({ status: 200 });
    const retried = await t.call("POST", `/v1/hooks/${id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.json.status).toBe("pending");
    await t.runner.tick();
    expect([good.received.length, bad.received.length]).toEqual([1, 2]);
    expect(bad.received[1]!.headers["x-mailroom-attempt"]).toBe("2");
    const hook = await t.hook(id);
    expect(hook.status).toBe("handled");
    expect(hook.events.map((e: any) => [e.kind, e.actor])).toEqual([
      ["failed", "bad"],
      ["retried", "api:test"],
      ["handled", ""],
    ]);
    expect((await t.attempts(id)).map((a) => [a.handler, a.attempt, a.outcome])).toEqual([
      ["good", 1, "succeeded"],
      ["bad", 1, "gave_up"],
      ["bad", 2, "succeeded"],
    ]);
  });

  test("RetryHook grants a full round of max_attempts again", async () => {
    const bad = receiver({ status: 500 });
    const t = createRunnerApp({ handlers: [forward("bad", bad.url, { max_attempts: 2 })], channels: [{ name: "c", handlers: ["bad"] }] });
    const id = await t.send("c");
    await t.runner.tick();
    t.clock.advance(1000);
    await t.runner.tick();
    expect((await t.hook(id)).status).toBe("failed");
    await t.call("POST", `/v1/hooks/${id}/retry`);
    await t.runner.tick();
    expect(await t.dueIn(id, "bad")).toBe(1000); // backoff starts over with the round
    t.clock.advance(1000);
    await t.runner.tick();
    expect(bad.received).toHaveLength(4);
    const hook = await t.hook(id);
    expect(hook.status).toBe("failed");
    expect(hook.events.map((e: any) => e.kind)).toEqual(["failed", "retried", "failed"]);
  });

  test("DiscardHook cancels the queued attempts and nothing runs for that hook afterwards", async () => {
    const target = receiver({ status: 500 });
    const t = createRunnerApp({ handlers: [forward("app", target.url)], channels: [{ name: "c", handlers: ["app"] }] });
    const id = await t.send("c");
    await t.runner.tick();
    expect(await t.dueIn(id, "app")).toBe(1000);
    expect((await t.call("POST", `/v1/hooks/${id}/discard`)).json.status).toBe("discarded");
    t.clock.advance(3_600_000);
    await t.runner.tick();
    expect(target.received).toHaveLength(1);
    expect((await t.attempts(id)).map((a) => a.outcome)).toEqual(["failed", "cancelled"]);
    expect((await t.hook(id)).status).toBe("discarded");

    // A discarded hook retried later is delivered again.
    target.answer({ status: 200 });
    await t.call("POST", `/v1/hooks/${id}/retry`);
    await t.runner.tick();
    expect(target.received).toHaveLength(2);
    expect((await t.hook(id)).status).toBe("handled");
  });

  test("a hook discarded before its first attempt is never delivered", async () => {
    const target = receiver({ status: 200 });
    const t = createRunnerApp({ handlers: [forward("app", target.url)], channels: [{ name: "c", handlers: ["app"] }] });
    const id = await t.send("c");
    await t.call("POST", `/v1/hooks/${id}/discard`);
    await t.runner.tick();
    expect(target.received).toHaveLength(0);
    expect((await t.attempts(id)).map((a) => a.outcome)).toEqual(["cancelled"]);
  });

  test("deleting a hook or its channel drops its queued attempts", async () => {
    const target = receiver({ status: 200 });
    const t = createRunnerApp({ handlers: [forward("app", target.url)], channels: [{ name: "c", handlers: ["app"] }] });
    const a = await t.send("c");
    await t.send("c");
    expect((await t.call("DELETE", `/v1/hooks/${a}`)).status).toBe(200);
    await t.runner.tick();
    expect(target.received.map((r) => r.headers["x-mailroom-hook-id"])).not.toContain(a);
    expect(target.received).toHaveLength(1);
    await t.send("c");
    expect((await t.call("DELETE", "/v1/channels/c")).status).toBe(200);
    await t.runner.tick();
    expect(target.received).toHaveLength(1);
    expect((await t.call("GET", `/v1/hooks/${a}/attempts`)).status).toBe(404);
  });

  test("ProcessHook and FailHook are refused on a channel with handlers", async () => {
    const t = createRunnerApp({ handlers: [forward("app", "http://127.0.0.1:9/x")], channels: [{ name: "c", handlers: ["app"] }] });
    const id = await t.send("c");
    expect((await t.call("POST", `/v1/hooks/${id}/process`)).status).toBe(409);
    expect((await t.call("POST", `/v1/hooks/${id}/fail`, { message: "no" })).status).toBe(409);
    const other = await t.send("plain"); // created by its first hook: no handlers
    expect((await t.call("POST", `/v1/hooks/${other}/process`)).json.status).toBe("handled");
    expect(await t.attempts(other)).toEqual([]);
  });
});

describe("restart", () => {
  test("queued and interrupted attempts resume on the same database file; nothing that succeeded runs again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mailroom-runner-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const dbPath = join(dir, "mailroom.db");
    const target = receiver({ status: 200 });
    const raw = { handlers: [forward("app", target.url)], channels: [{ name: "c", handlers: ["app"] }] };

    const first = createRunnerApp(raw, { dbPath });
    const done = await first.send("c", '{"n":"done"}');
    await first.runner.tick();
    target.answer({ status: 500 });
    const retrying = await first.send("c", '{"n":"retrying"}');
    await first.runner.tick();
    target.answer({ status: 200 });
    const never = await first.send("c", '{"n":"never-ran"}');
    const crashed = await first.send("c", '{"n":"crashed"}');
    // A crash in the middle of an attempt leaves it `running` in the file.
    first.db.$client.run("UPDATE attempts SET outcome = 'running', started_at = 1 WHERE hook_id = ?", [crashed]);
    await first.runner.stop();
    first.close();
    expect(target.received).toHaveLength(2);

    const second = createRunnerApp(raw, { dbPath });
    cleanup.push(second.close);
    second.clock.set(first.clock.now());
    await second.runner.tick();
    const sent = () => target.received.map((r) => r.headers["x-mailroom-hook-id"]);
    expect(sent().slice(2).sort()).toEqual([crashed, never].sort());
    second.clock.advance(1000);
    await second.runner.tick();
    expect(sent().filter((id) => id === done)).toHaveLength(1);
    expect(sent().filter((id) => id === retrying)).toHaveLength(2);
    for (const id of [done, retrying, never, crashed]) expect((await second.hook(id)).status).toBe("handled");
    await second.runner.tick();
    expect(target.received).toHaveLength(5);
  });

  test("start() runs attempts and their retries in the background with real timers; stop() waits for them", async () => {
    const target = receiver({ status: 500 }, { status: 200, hold: 20 });
    const t = createRunnerApp({
      handlers: [forward("app", target.url, { backoff: { initial: "20ms", max: "20ms" } })],
      channels: [{ name: "c", handlers: ["app"] }],
    });
    // The background loop reads the system clock; the fake one is only for tick().
    t.clock.set(Date.now());
    const realNow = setInterval(() => t.clock.set(Date.now()), 1);
    cleanup.push(() => clearInterval(realNow));
    t.runner.start();
    const id = await t.send("c"); // the writer's notify() wakes the loop
    await target.arrived(2);
    await t.runner.stop();
    expect(target.received).toHaveLength(2);
    expect((await t.hook(id)).status).toBe("handled");
  });
});
