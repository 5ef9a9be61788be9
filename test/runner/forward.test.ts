import { describe, expect, test } from "bun:test";
import { receivers } from "./receiver";
import { createRunnerApp, forward } from "./setup";

const receiver = receivers();

describe("forward handler", () => {
  test("sends the original method, body bytes and headers minus hop-by-hop ones; 2xx -> handled", async () => {
    const target = receiver({ status: 202, body: "thanks" });
    const t = createRunnerApp({ handlers: [forward("to-app", target.url)], channels: [{ name: "gh", handlers: ["to-app"] }] });
    const body = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d, 0x0a, 0xff]);
    const id = await t.send("gh", body, {
      "x-github-event": "push",
      "x-hub-signature-256": "sha256=abc",
      connection: "keep-alive, x-private",
      "x-private": "hop",
      "proxy-authorization": "secret",
      te: "trailers",
    });
    expect(target.received).toHaveLength(0); // catching never waits for handlers
    expect((await t.hook(id)).status).toBe("pending");

    await t.runner.tick();
    expect(target.received).toHaveLength(1);
    const got = target.received[0]!;
    expect(got.method).toBe("POST");
    expect(got.path).toBe("/hook");
    expect([...got.body]).toEqual([...body]);
    expect(got.headers["x-github-event"]).toBe("push");
    expect(got.headers["x-hub-signature-256"]).toBe("sha256=abc");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["x-mailroom-hook-id"]).toBe(id);
    expect(got.headers["x-mailroom-channel"]).toBe("gh");
    expect(got.headers["x-mailroom-attempt"]).toBe("1");
    for (const h of ["x-private", "proxy-authorization", "te"]) expect(got.headers[h]).toBeUndefined();
    expect(got.headers.host).toBe(new URL(target.url).host);

    const hook = await t.hook(id);
    expect(hook.status).toBe("handled");
    expect(hook.finalized_at).toBe(new Date(t.clock.now()).toISOString());
    expect(hook.events).toEqual([{ kind: "handled", actor: "", message: "", created_at: hook.finalized_at }]);
    const [attempt] = await t.attempts(id);
    expect(attempt).toMatchObject({ handler: "to-app", attempt: 1, outcome: "succeeded", http_status: 202, excerpt: "thanks", error: "" });

    await t.runner.tick();
    expect(target.received).toHaveLength(1); // nothing runs twice once it succeeded
  });

  test("configured headers are added (from the environment too) and the *_env keys are not sent", async () => {
    const target = receiver({ status: 200 });
    const t = createRunnerApp(
      {
        handlers: [forward("to-app", target.url, { headers: { "x-extra": "1", authorization_env: "APP_TOKEN" } })],
        channels: [{ name: "c", handlers: ["to-app"] }],
      },
      { env: { APP_TOKEN: "Bearer s3cret" } },
    );
    await t.send("c", "{}", { "x-extra": "from-sender" });
    await t.runner.tick();
    expect(target.received[0]!.headers["x-extra"]).toBe("1");
    expect(target.received[0]!.headers["authorization"]).toBe("Bearer s3cret");
    expect(target.received[0]!.headers["authorization_env"]).toBeUndefined();
  });

  test("GET hooks are forwarded without a body; a 3xx is a failure, not followed", async () => {
    const target = receiver({ status: 302, headers: { location: "http://127.0.0.1:1/elsewhere" } });
    const t = createRunnerApp({ handlers: [forward("to-app", target.url)], channels: [{ name: "c", handlers: ["to-app"] }] });
    const res = await t.app.handle(new Request("http://localhost/?channel=c", { method: "GET" }));
    const { id } = (await res.json()) as { id: string };
    await t.runner.tick();
    expect(target.received).toHaveLength(1);
    expect(target.received[0]!.method).toBe("GET");
    expect(target.received[0]!.body.byteLength).toBe(0);
    expect((await t.attempts(id))[0]).toMatchObject({ outcome: "failed", http_status: 302, error: "answered 302 Found" });
  });

  test("a target that cannot be reached is a failed attempt with the error", async () => {
    const gone = receiver();
    gone.stop();
    const t = createRunnerApp({ handlers: [forward("to-app", gone.url)], channels: [{ name: "c", handlers: ["to-app"] }] });
    const id = await t.send("c");
    await t.runner.tick();
    const [a] = await t.attempts(id);
    expect(a.outcome).toBe("failed");
    expect(a.http_status).toBeNull();
    expect(a.error.length).toBeGreaterThan(0);
  });

  test("the stored excerpt of a large answer is bounded", async () => {
    const target = receiver({ status: 500, body: "x".repeat(100_000) });
    const t = createRunnerApp({ handlers: [forward("to-app", target.url)], channels: [{ name: "c", handlers: ["to-app"] }] });
    const id = await t.send("c");
    await t.runner.tick();
    const [a] = await t.attempts(id);
    expect(a.excerpt.length).toBeLessThan(2100);
    expect(a.excerpt.startsWith("x".repeat(2048))).toBe(true);
  });
});
