import { afterAll, describe, expect, test } from "bun:test";
import { createTerminal, printable } from "../../src/lib/terminal";
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
      expect(attempt).toMatch(new RegExp(`INFO  handler app ${caught.id} \\(fwd\\) attempt 1 succeeded HTTP 202 \\d+ ms$`));

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
      expect(entry.error).toMatch(/refused|ECONNREFUSED|connect/i);
      expect(typeof entry.ms).toBe("number");
      const hook = JSON.parse(await waitForOutput(run, /"event":"hook"/));
      expect(hook).toMatchObject({ level: "info", method: "POST", channel: "fwd", id, size: 5, content_type: "text/plain" });
      expect(Date.parse(hook.time)).toBeGreaterThan(0);
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
    activity.attempt({ hookId: "h", channel: "c", handler: "cmd", attempt: 2, outcome: "failed", exitCode: 3, ms: 12, error: "exit code 3" });
    return out.join("");
  };
  test("colours only when asked, with the exit code and the error of a failed attempt", () => {
    expect(lines(false)).toMatch(/WARN {2}handler cmd h \(c\) attempt 2 failed, will retry exit 3 12 ms: exit code 3\n$/);
    expect(lines(false)).not.toContain("\x1b[");
    expect(lines(true)).toContain("\x1b[33mWARN ");
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
  test("a batch of caught hooks is one write", () => {
    const writes: string[] = [];
    const { activity } = createTerminal({ format: "text", quiet: false, color: false, write: (t) => writes.push(t) });
    const hook = { id: "x", channel: "c", method: "POST", headers: '{"content-type":"text/plain"}', body: new Uint8Array(3), createdAt: 0 };
    activity.caught([hook, { ...hook, id: "y" }]);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.trim().split("\n")).toHaveLength(2);
  });
});
