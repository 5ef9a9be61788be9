import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
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
/**
 * Whether the process still runs. A killed process whose parent is gone may stay a zombie when
 * nothing reaps orphans (PID 1 in some containers): it has ended, so it counts as gone.
 */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !(existsSync(stat) && readFileSync(stat, "utf8").split(") ")[1]?.startsWith("Z"));
}
/**
 * Whether the process has ended within `ms` (a SIGKILL is delivered, not awaited, by kill()). The
 * deadline only bounds a failure (a process left behind runs 20 s), generous for a busy machine.
 */
async function endsWithin(pid: number, ms = 10_000): Promise<boolean> {
  const until = performance.now() + ms;
  while (running(pid)) {
    if (performance.now() > until) return false;
    await Bun.sleep(10);
  }
  return true;
}
const command = (name: string, argv: string[], extra: Record<string, unknown> = {}) => ({
  name,
  kind: "command",
  argv,
  backoff: { initial: "1s", max: "10s" },
  ...extra,
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
    expect(attempts.map((a) => [a.outcome, a.exit_code])).toEqual([
      ["failed", 3],
      ["gave_up", 3],
    ]);
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
    // Left running, it would take 30 s: 10 s only bounds that failure on a busy machine.
    expect(performance.now() - began).toBeLessThan(10_000);
    const [a] = await t.attempts(id);
    // (Whether "started" got out within 200 ms depends on the machine: the next test checks the excerpt.)
    expect(a).toMatchObject({ outcome: "failed", error: "killed after 200 ms without exiting" });
  }, 30_000);

  test("the timeout ends the attempt: the program's whole process group is killed, output is no longer awaited", async () => {
    const dir = tempDir();
    const t = createRunnerApp({
      handlers: [
        command("forks", ["sh", "-c", 'sleep 20 & echo $! > "$OUT/grandchild"; echo started; sleep 20'], { env: { OUT: dir }, timeout: "1s", concurrency: 1 }),
      ],
      channels: [{ name: "c", handlers: ["forks"] }],
    });
    const id = await t.send("c");
    const began = performance.now();
    await t.runner.tick();
    // Awaiting the grandchild's output would take 20 s.
    expect(performance.now() - began).toBeLessThan(10_000);
    const [a] = await t.attempts(id);
    expect(a).toMatchObject({ outcome: "failed", error: "killed after 1000 ms without exiting", excerpt: "started\n" });
    expect(await endsWithin(Number(readFileSync(join(dir, "grandchild"), "utf8")))).toBe(true);
  }, 30_000);

  test("a program that exits leaves no process of its group behind, and its output is kept", async () => {
    const dir = tempDir();
    const t = createRunnerApp({
      handlers: [command("leaves", ["sh", "-c", 'sleep 20 & echo $! > "$OUT/grandchild"; echo done'], { env: { OUT: dir }, timeout: "10s" })],
      channels: [{ name: "c", handlers: ["leaves"] }],
    });
    const id = await t.send("c");
    const began = performance.now();
    await t.runner.tick();
    // Awaiting the grandchild's output would take 20 s.
    expect(performance.now() - began).toBeLessThan(10_000);
    expect((await t.attempts(id))[0]).toMatchObject({ outcome: "succeeded", exit_code: 0, excerpt: "done\n" });
    expect(await endsWithin(Number(readFileSync(join(dir, "grandchild"), "utf8")))).toBe(true);
  }, 30_000);

  test("stopping the runner kills a running program's group at once; the attempt runs again at the next start", async () => {
    const dir = tempDir();
    const dbPath = join(dir, "mailroom.db");
    const raw = {
      handlers: [
        command("forks", ["sh", "-c", 'sleep 20 & echo $! > "$OUT/grandchild.tmp"; mv "$OUT/grandchild.tmp" "$OUT/grandchild"; sleep 20'], {
          env: { OUT: dir },
          timeout: "60s",
        }),
      ],
      channels: [{ name: "c", handlers: ["forks"] }],
    };
    const first = createRunnerApp(raw, { dbPath });
    const id = await first.send("c");
    const ticking = first.runner.tick();
    const pidFile = join(dir, "grandchild");
    while (!existsSync(pidFile)) await Bun.sleep(5); // waits for the program to have started, not for time to pass
    const began = performance.now();
    await first.runner.stop();
    await ticking;
    // Waiting for the program would take 20 s.
    expect(performance.now() - began).toBeLessThan(10_000);
    expect(await endsWithin(Number(readFileSync(pidFile, "utf8")))).toBe(true);
    expect((await first.attempts(id)).map((a) => a.outcome)).toEqual(["running"]);
    first.close();

    rmSync(pidFile);
    const second = createRunnerApp({ ...raw, handlers: [command("forks", ["sh", "-c", "echo again"])] }, { dbPath });
    second.clock.set(first.clock.now());
    await second.runner.tick();
    expect((await second.attempts(id)).map((a) => [a.attempt, a.outcome, a.excerpt])).toEqual([[1, "succeeded", "again\n"]]);
    second.close();
  }, 30_000);
});
