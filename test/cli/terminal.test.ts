import { afterAll, describe, expect, test } from "bun:test";
import { createTerminal, HOOK_LINES_PER_SECOND, printable, spokenDuration } from "../../src/lib/terminal";
import { removeTempDirs } from "../helpers/binary";
import { createReceiver } from "../runner/receiver";
import { serveFromSource, waitForOutput } from "./run";

afterAll(removeTempDirs);

const config = (forwardTo: string) => ({
  guards: [{ name: "tok", kind: "token", secret: "sender-secret-123" }],
  handlers: [{ name: "app", kind: "forward", url: forwardTo, max_attempts: 1 }],
  channels: [
    { name: "gated", guards: ["tok"] },
    { name: "fwd", handlers: ["app"] },
  ],
});

describe("the live terminal of mailroom serve", () => {
  test("one line per caught hook, refusal and handler attempt, plain text when stdout is not a terminal", async () => {
    const app = createReceiver({ status: 202 });
    const run = await serveFromSource(config(app.url));
    try {
      const caught = (await (
        await fetch(`${run.url}/?channel=fwd`, { method: "PUT", body: '{"a":1}', headers: { "content-type": "application/json" } })
      ).json()) as { id: string };
      const hookLine = await waitForOutput(run, new RegExp(caught.id + ".*B"));
      expect(hookLine).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}hook +PUT fwd \w{26} 7 B application\/json$/);
      const attempt = await waitForOutput(run, /handler +app/);
      expect(attempt).toMatch(new RegExp(`INFO  handler app ${caught.id} \\(fwd\\) attempt 1 succeeded after \\d+ ms: HTTP 202$`));

      const refused = await fetch(`${run.url}/?channel=gated`, { method: "POST", body: "x", headers: { authorization: "Bearer wrong-secret-456" } });
      expect(refused.status).toBe(401);
      const line = await waitForOutput(run, /refused/);
      expect(line).toMatch(/WARN {2}refused POST gated refused by guard tok: 401 .+ \(from 127\.0\.0\.1; refusal \w{26}\)$/);
      // Refusals the catching endpoint makes itself are printed too.
      expect((await fetch(`${run.url}/?channel=Bad%20Name`, { method: "POST", body: "x", headers: { authorization: "Bearer wrong-secret-456" } })).status).toBe(
        400,
      );
      expect(await waitForOutput(run, /refused: 400/)).toMatch(
        /WARN {2}refused POST Bad Name refused: 400 channel names are lowercase letters and digits, words joined by - or _: got "Bad Name" \(from 127\.0\.0\.1; refusal \w{26}\)$/,
      );
      expect(run.output()).not.toContain("wrong-secret-456");
      expect(run.output()).not.toContain("sender-secret-123");
      expect(run.output()).not.toContain("\x1b[");
    } finally {
      await run.stop();
      app.stop();
    }
  });

  test("a failed forward says why, at level error once it gives up; --log-format json gives one object per line", async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${closed.port}/gone`;
    closed.stop(true);
    const run = await serveFromSource(config(url), ["--log-format", "json"]);
    try {
      const { id } = (await (await fetch(`${run.url}/?channel=fwd`, { method: "POST", body: "hello", headers: { "content-type": "text/plain" } })).json()) as {
        id: string;
      };
      const line = await waitForOutput(run, /"event":"handler"/);
      const entry = JSON.parse(line);
      expect(entry).toMatchObject({ level: "error", event: "handler", handler: "app", id, channel: "fwd", attempt: 1, outcome: "gave_up" });
      // Bun's own text ("Unable to connect. Is the computer able to access the url?") stays out.
      expect(entry.error).toBe("connection refused");
      expect(entry.next_in_ms).toBeUndefined();
      expect(typeof entry.ms).toBe("number");
      const hook = JSON.parse(await waitForOutput(run, /"event":"hook"/));
      expect(hook).toMatchObject({ level: "info", method: "POST", channel: "fwd", id, size: 5, content_type: "text/plain" });
      expect(Date.parse(hook.time)).toBeGreaterThan(0);
    } finally {
      await run.stop();
    }
  });

  test("a failed attempt says why in a few words and when the next one comes; the last says it gave up", async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${closed.port}/gone`;
    closed.stop(true);
    const run = await serveFromSource({
      handlers: [{ name: "app", kind: "forward", url, max_attempts: 2, backoff: { initial: "1s" } }],
      channels: [{ name: "fwd", handlers: ["app"] }],
    });
    try {
      const { id } = (await (await fetch(`${run.url}/?channel=fwd`, { method: "POST", body: "{}" })).json()) as { id: string };
      const first = await waitForOutput(run, /attempt 1 failed/);
      expect(first).toMatch(new RegExp(`WARN {2}handler app ${id} \\(fwd\\) attempt 1 failed after \\d+ ms: connection refused; next in 1 s$`));
      const last = await waitForOutput(run, /attempt 2 failed/);
      expect(last).toMatch(new RegExp(`ERROR handler app ${id} \\(fwd\\) attempt 2 failed after \\d+ ms: connection refused; gave up$`));
      expect(run.output()).not.toMatch(/Unable to connect|Is the computer|verbose: true/);
    } finally {
      await run.stop();
    }
  });

  test("--quiet keeps warnings and errors only", async () => {
    const app = createReceiver({ status: 200 });
    const run = await serveFromSource(config(app.url), ["--quiet"]);
    try {
      await fetch(`${run.url}/?channel=fwd`, { method: "POST", body: "{}" });
      await fetch(`${run.url}/?channel=gated`, { method: "POST", body: "x" });
      // The hook was answered before the refused request was sent, and its line is written before its answer.
      await waitForOutput(run, /refused/);
      expect(run.output()).not.toMatch(/INFO {2}hook/);
    } finally {
      await run.stop();
      app.stop();
    }
  });
});

describe("createTerminal", () => {
  const lines = (color: boolean) => {
    const out: string[] = [];
    const { activity } = createTerminal({ format: "text", quiet: false, color, write: (t) => out.push(t), now: () => 0 });
    activity.attempt({
      hookId: "h",
      channel: "c",
      handler: "cmd",
      attempt: 2,
      outcome: "failed",
      exitCode: 3,
      ms: 12,
      error: "exited with code 3",
      nextInMs: 1500,
    });
    return out.join("");
  };
  test("colours only when asked, with the error of a failed attempt and when the next comes", () => {
    expect(lines(false)).toMatch(/WARN {2}handler cmd h \(c\) attempt 2 failed after 12 ms: exited with code 3; next in 1\.5 s\n$/);
    expect(lines(false)).not.toContain("\x1b[");
    expect(lines(true)).toContain("\x1b[33mWARN ");
  });
  test("a last attempt says it gave up; a failed one with no next attempt (its hook discarded) says so; durations as spoken", () => {
    const out: string[] = [];
    const { activity } = createTerminal({ format: "text", quiet: false, color: false, write: (t) => out.push(t), now: () => 0 });
    const a = { hookId: "h", channel: "c", handler: "fwd", attempt: 5, ms: 3, error: "connection refused" };
    activity.attempt({ ...a, outcome: "gave_up" });
    activity.attempt({ ...a, outcome: "failed" });
    activity.attempt({ ...a, outcome: "failed", httpStatus: 503, error: "answered 503 Service Unavailable", nextInMs: 120_000 });
    expect(out).toEqual([
      expect.stringMatching(/ERROR handler fwd h \(c\) attempt 5 failed after 3 ms: connection refused; gave up\n$/),
      expect.stringMatching(/WARN {2}handler fwd h \(c\) attempt 5 failed after 3 ms: connection refused; no next attempt\n$/),
      expect.stringMatching(/WARN {2}handler fwd h \(c\) attempt 5 failed after 3 ms: answered 503 Service Unavailable; next in 2 min\n$/),
    ]);
    expect([850, 1000, 1449, 45_000, 180_000, 7_200_000].map(spokenDuration)).toEqual(["850 ms", "1 s", "1.4 s", "45 s", "3 min", "2 h"]);
  });

  test("a handshake answered is an info line of its own, not a refusal; quiet leaves it out", () => {
    for (const quiet of [false, true]) {
      const out: string[] = [];
      const { activity } = createTerminal({ format: "text", quiet, color: false, write: (t) => out.push(t), now: () => 0 });
      const r = { id: "r1", channel: "slack", guard: "slack", status: 200, reason: "handshake: url_verification answered", ip: "10.0.0.1", method: "POST" };
      activity.refused({ ...r, kind: "handshake" });
      activity.refused({ ...r, kind: "refused", status: 401, reason: "bad signature" });
      const text = out.join("");
      expect(text.includes("INFO  handshake POST slack handshake answered by guard slack: 200 handshake: url_verification answered")).toBe(!quiet);
      expect(text).toMatch(/WARN {2}refused POST slack refused by guard slack: 401 bad signature/);
    }
  });
  test("control and format characters a sender chose are written as escapes", () => {
    expect(printable("a\nb\u0085c\u202ed\u200be\u{e0041}")).toBe("a\\nb\\x85c\\u202ed\\u200be\\u{e0041}");
  });
  test("a caught hook's line shows its Content-Type as caught (escaped), or read from its headers when not given", () => {
    const writes: string[] = [];
    const { activity } = createTerminal({ format: "text", quiet: false, color: false, write: (t) => writes.push(t) });
    const hook = { id: "x", channel: "c", method: "POST", headers: '{"content-type":"text/plain"}', body: new Uint8Array(3), createdAt: 0 };
    activity.caught([hook, { ...hook, id: "y", contentType: "text/x\u202e\x1b[31m" }, { ...hook, id: "z", contentType: null }]);
    const lines = writes.join("").trim().split("\n");
    expect(lines[0]).toEndWith("POST c x 3 B text/plain");
    expect(lines[1]).toEndWith("POST c y 3 B text/x\\u202e\\x1b[31m");
    expect(lines[2]).toEndWith("POST c z 3 B (no content type)");
  });
  test("a flood is listed 50 lines a second; the rest of each second is said in one line with its count by channel", () => {
    const writes: string[] = [];
    let clock = 1_000_000;
    const { activity } = createTerminal({ format: "text", quiet: false, color: false, write: (t) => writes.push(t), now: () => clock });
    const hook = { id: "x", channel: "bench", method: "POST", headers: "{}", body: new Uint8Array(3), createdAt: clock };
    const batch = (n: number, channel = "bench") => Array.from({ length: n }, (_, i) => ({ ...hook, id: `h${i}`, channel }));
    activity.caught(batch(40));
    activity.caught(batch(30));
    activity.caught(batch(5, "shop"));
    const text = () => writes.join("").trim().split("\n");
    expect(text()).toHaveLength(HOOK_LINES_PER_SECOND);
    expect(text().every((l) => / hook +POST /.test(l))).toBe(true);
    // The next second: first the count of the one before, then its own hooks.
    clock += 1000;
    activity.caught(batch(1));
    const lines = text();
    expect(lines).toHaveLength(HOOK_LINES_PER_SECOND + 2);
    expect(lines[HOOK_LINES_PER_SECOND]).toMatch(/INFO +hooks +25 more caught in that second, not listed one by one \(bench 20, shop 5\)$/);
    expect(lines[HOOK_LINES_PER_SECOND + 1]).toEndWith("POST bench h0 3 B (no content type)");
  });
  test("with --log-format json, a flood's unlisted hooks are one object with their count by channel, said once the second is over", async () => {
    const writes: string[] = [];
    const { activity } = createTerminal({ format: "json", quiet: false, color: false, write: (t) => writes.push(t) });
    const hook = { id: "x", channel: "c\u202e", method: "POST", headers: "{}", body: new Uint8Array(3), createdAt: Date.now() };
    activity.caught(Array.from({ length: HOOK_LINES_PER_SECOND + 3 }, (_, i) => ({ ...hook, id: `h${i}` })));
    const said = async () => {
      for (;;) {
        const objects = writes
          .join("")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l));
        const summary = objects.find((o) => o.event === "hooks");
        if (summary) return { objects, summary };
        await Bun.sleep(50);
      }
    };
    const { objects, summary } = await said();
    expect(objects.filter((o) => o.event === "hook")).toHaveLength(HOOK_LINES_PER_SECOND);
    expect(summary).toMatchObject({ level: "info", event: "hooks", count: 3, channels: { "c\u202e": 3 } });
  });
  test("a batch of caught hooks is one write", () => {
    const writes: string[] = [];
    const { activity } = createTerminal({ format: "text", quiet: false, color: false, write: (t) => writes.push(t) });
    const hook = { id: "x", channel: "c", method: "POST", headers: '{"content-type":"text/plain"}', body: new Uint8Array(3), createdAt: 0 };
    activity.caught([hook, { ...hook, id: "y" }]);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.trim().split("\n")).toHaveLength(2);
  });
});
