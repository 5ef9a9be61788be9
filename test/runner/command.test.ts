import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRunnerApp } from "./setup";

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-command-"));
  dirs.push(dir);
  return dir;
}
const command = (name: string, argv: string[], extra: Record<string, unknown> = {}) => ({
  name, kind: "command", argv, backoff: { initial: "1s", max: "10s" }, ...extra,
});

describe("command handler", () => {
  test("the hook arrives as JSON on standard input; exit 0 -> handled; output excerpt stored", async () => {
    const dir = tempDir();
    const t = createRunnerApp({
      handlers: [command("save", ["sh", "-c", 'cat > "$OUT/hook.json"; echo "saved $MAILROOM_HOOK_ID try $MAILROOM_ATTEMPT"'], { env: { OUT: dir } })],
      channels: [{ name: "c", handlers: ["save"] }],
    });
    const id = await t.send("c", '{"hello":"wörld"}', { "x-custom": "1" });
    await t.runner.tick();
    const hook = JSON.parse(readFileSync(join(dir, "hook.json"), "utf8"));
    expect(hook).toEqual({
      id,
      channel: "c",
      method: "POST",
      query: "channel=c",
      headers: expect.objectContaining({ "content-type": "application/json", "x-custom": "1" }),
      content_type: "application/json",
      body: Buffer.from('{"hello":"wörld"}').toString("base64"),
      body_text: '{"hello":"wörld"}',
      ip: expect.any(String),
      created_at: new Date(t.clock.now()).toISOString(),
    });
    expect((await t.hook(id)).status).toBe("handled");
    expect((await t.attempts(id))[0]).toMatchObject({ outcome: "succeeded", exit_code: 0, excerpt: `saved ${id} try 1\n`, error: "" });
  });

  test("the program gets PATH and its env, not the rest of Mailroom's environment, unless inherit_env", async () => {
    const dir = tempDir();
    process.env.MAILROOM_TEST_SECRET = "do-not-leak";
    try {
      for (const inherit of [false, true]) {
        const t = createRunnerApp({
          handlers: [command("env", ["sh", "-c", `env > "$OUT/env-${inherit}.txt"`], { env: { OUT: dir }, inherit_env: inherit })],
          channels: [{ name: "c", handlers: ["env"] }],
        });
        const id = await t.send("c", "x");
        await t.runner.tick();
        expect((await t.hook(id)).status).toBe("handled");
        const env = readFileSync(join(dir, `env-${inherit}.txt`), "utf8");
        expect(env).toContain("PATH=");
        expect(env).toContain(`MAILROOM_HOOK_ID=${id}`);
        expect(env.includes("do-not-leak")).toBe(inherit);
      }
    } finally {
      delete process.env.MAILROOM_TEST_SECRET;
    }
  });

  test("a body that is not UTF-8 has no body_text; cwd is honoured", async () => {
    const dir = tempDir();
    const t = createRunnerApp({
      handlers: [command("save", ["sh", "-c", "cat > hook.json"], { cwd: dir })],
      channels: [{ name: "c", handlers: ["save"] }],
    });
    await t.send("c", new Uint8Array([0xff, 0xfe, 0x00]), { "content-type": "application/octet-stream" });
    await t.runner.tick();
    const hook = JSON.parse(readFileSync(join(dir, "hook.json"), "utf8"));
    expect(hook.body).toBe("//4A");
    expect(hook.body_text).toBeUndefined();
  });

  test("a non-zero exit is a failure with the exit code and the output; retried, then gives up", async () => {
    const t = createRunnerApp({
      handlers: [command("fails", ["sh", "-c", "echo out; echo 'no database' >&2; exit 3"], { max_attempts: 2 })],
      channels: [{ name: "c", handlers: ["fails"] }],
    });
    const id = await t.send("c");
    await t.runner.tick();
    expect(await t.dueIn(id, "fails")).toBe(1000);
    t.clock.advance(1000);
    await t.runner.tick();
    const attempts = await t.attempts(id);
    expect(attempts.map((a) => [a.outcome, a.exit_code])).toEqual([["failed", 3], ["gave_up", 3]]);
    expect(attempts[0].excerpt).toBe("stdout: out\n\nstderr: no database\n");
    expect(attempts[0].error).toBe("exited with code 3");
    const hook = await t.hook(id);
    expect(hook.status).toBe("failed");
    expect(hook.events[0]).toMatchObject({ kind: "failed", actor: "fails", message: "gave up after 2 attempts: exited with code 3" });
  });

  test("a program that cannot be started is a failed attempt", async () => {
    const t = createRunnerApp({
      handlers: [command("missing", ["/nonexistent/program-xyz"])],
      channels: [{ name: "c", handlers: ["missing"] }],
    });
    const id = await t.send("c");
    await t.runner.tick();
    const [a] = await t.attempts(id);
    expect(a.outcome).toBe("failed");
    expect(a.error).toContain("/nonexistent/program-xyz");
  });

  test("a program still running after the timeout is killed", async () => {
    const t = createRunnerApp({
      handlers: [command("slow", ["sh", "-c", "echo started; exec sleep 30"], { timeout: "200ms" })],
      channels: [{ name: "c", handlers: ["slow"] }],
    });
    const id = await t.send("c");
    const began = performance.now();
    await t.runner.tick();
    expect(performance.now() - began).toBeLessThan(5000);
    const [a] = await t.attempts(id);
    expect(a).toMatchObject({ outcome: "failed", error: "killed after 200 ms without exiting", excerpt: "started\n" });
  });
});
