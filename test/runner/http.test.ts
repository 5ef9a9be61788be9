/**
 * Handlers as a user sees them, on every target (MAILROOM_TEST_TARGET): the real clock and the
 * runner's own loop, observed only through the management API and a receiving app. The step-by-step
 * tests with the fake clock (retries.test.ts, lifecycle.test.ts, ...) stay in process.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { eventually, startTarget, type Target } from "../helpers/target";
import { createReceiver } from "./receiver";

const receivers: ReturnType<typeof createReceiver>[] = [];
afterAll(() => receivers.forEach((r) => r.stop()));
function receiver(...answers: Parameters<typeof createReceiver>) {
  const r = createReceiver(...answers);
  receivers.push(r);
  return r;
}

const forward = (name: string, url: string, extra: Record<string, unknown> = {}) => ({
  name,
  kind: "forward",
  url,
  backoff: { initial: "50ms", max: "200ms" },
  ...extra,
});

async function send(t: Target, channel: string, body: string | Uint8Array, headers: Record<string, string> = {}): Promise<string> {
  const res = await t.post(channel, body, { "content-type": "application/json", ...headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** The hook once its status is no longer pending. */
const settled = (t: Target, id: string) =>
  eventually(`hook ${id} to leave pending`, async () => {
    const hook = (await t.call("GET", `/v1/hooks/${id}`)).json;
    return hook.status === "pending" ? undefined : hook;
  });

describe("handlers over HTTP", () => {
  test("a forward handler delivers the exact bytes and headers; the hook becomes handled with one attempt", async () => {
    const app = receiver({ status: 202, body: "thanks" });
    const t = await startTarget({ handlers: [forward("to-app", app.url)], channels: [{ name: "gh", handlers: ["to-app"] }] });
    const body = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d, 0x0a, 0xff]);
    const id = await send(t, "gh", body, { "x-github-event": "push", "x-hub-signature-256": "sha256=abc" });

    const hook = await settled(t, id);
    expect(hook.status).toBe("handled");
    expect(hook.events.map((e: { kind: string }) => e.kind)).toEqual(["handled"]);
    expect(app.received).toHaveLength(1);
    const got = app.received[0]!;
    expect([...got.body]).toEqual([...body]);
    expect(got.headers["x-github-event"]).toBe("push");
    expect(got.headers["x-hub-signature-256"]).toBe("sha256=abc");
    expect(got.headers["x-mailroom-hook-id"]).toBe(id);
    const attempts = (await t.call("GET", `/v1/hooks/${id}/attempts`)).json;
    expect(attempts).toMatchObject([{ handler: "to-app", attempt: 1, outcome: "succeeded", http_status: 202, excerpt: "thanks", error: "" }]);
    await t.stop();
  });

  test("a failing app is retried with backoff until it answers 2xx; every attempt is listed", async () => {
    const app = receiver({ status: 500, body: "down" }, { status: 503, body: "starting" }, { status: 200, body: "ok" });
    const t = await startTarget({ handlers: [forward("flaky", app.url)], channels: [{ name: "c", handlers: ["flaky"] }] });
    const id = await send(t, "c", '{"n":1}');
    expect((await settled(t, id)).status).toBe("handled");
    const attempts = (await t.call("GET", `/v1/hooks/${id}/attempts`)).json;
    expect(attempts.map((a: any) => [a.attempt, a.outcome, a.http_status])).toEqual([
      [1, "failed", 500],
      [2, "failed", 503],
      [3, "succeeded", 200],
    ]);
    expect(attempts[0].error).toContain("500");
    await t.stop();
  });

  test("a handler that gives up fails the hook; RetryHook delivers it again", async () => {
    const app = receiver({ status: 500, body: "no" });
    const t = await startTarget({ handlers: [forward("down", app.url, { max_attempts: 2 })], channels: [{ name: "c", handlers: ["down"] }] });
    const id = await send(t, "c", '{"n":2}');
    const failed = await settled(t, id);
    expect(failed.status).toBe("failed");
    expect(failed.events).toMatchObject([{ kind: "failed", actor: "down" }]);
    expect(app.received).toHaveLength(2);

    app.answer({ status: 200, body: "back" });
    const retried = await t.call("POST", `/v1/hooks/${id}/retry`);
    expect(retried.json.status).toBe("pending");
    expect((await settled(t, id)).status).toBe("handled");
    const outcomes = (await t.call("GET", `/v1/hooks/${id}/attempts`)).json.map((a: any) => a.outcome);
    expect(outcomes).toEqual(["failed", "gave_up", "succeeded"]);
    await t.stop();
  });

  test("a command handler gets the hook as JSON on stdin; a non-zero exit is a failed attempt with its code", async () => {
    const t = await startTarget({
      handlers: [
        { name: "ok", kind: "command", argv: ["sh", "-c", 'read -r line; case "$line" in *"\\"channel\\":\\"cmd\\""*) echo seen;; *) exit 9;; esac'] },
        { name: "bad", kind: "command", argv: ["sh", "-c", "cat >/dev/null; echo broken >&2; exit 3"], max_attempts: 1 },
      ],
      channels: [
        { name: "cmd", handlers: ["ok"] },
        { name: "cmd-bad", handlers: ["bad"] },
      ],
    });
    const good = await send(t, "cmd", '{"x":1}');
    expect((await settled(t, good)).status).toBe("handled");
    expect((await t.call("GET", `/v1/hooks/${good}/attempts`)).json).toMatchObject([{ outcome: "succeeded", exit_code: 0, excerpt: "seen\n" }]);
    const bad = await send(t, "cmd-bad", '{"x":2}');
    expect((await settled(t, bad)).status).toBe("failed");
    const [attempt] = (await t.call("GET", `/v1/hooks/${bad}/attempts`)).json;
    expect(attempt).toMatchObject({ outcome: "gave_up", exit_code: 3 });
    expect(attempt.excerpt + attempt.error).toContain("broken");
    await t.stop();
  });
});
