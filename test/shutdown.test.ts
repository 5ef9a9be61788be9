import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildBinary, removeTempDirs, startProcess, tempDir, type Running } from "./helpers/binary";

afterAll(removeTempDirs);

const TOKEN = "shutdown-test-token";
const AUTH = { authorization: `Bearer ${TOKEN}` };

/** A folder whose config answers channel "slow" with 202 after 5 minutes (the longest delay). */
function configured(): string {
  const dir = tempDir("mailroom-shutdown-");
  writeFileSync(
    join(dir, "mailroom.toml"),
    `[server]\nport = 0\n[storage]\npath = "data/hooks.db"\n[[api_keys]]\nlabel = "ci"\ntoken = "${TOKEN}"\n` +
      `[[channels]]\nname = "slow"\nresponse = { status = 202, body = "later {{id}}", delay = "5m" }\n`,
  );
  return dir;
}

/** Sends a hook to the delayed channel and resolves once it is stored (its answer is still waiting). */
async function caughtAndWaiting(run: Running): Promise<{ answer: Promise<Response> }> {
  const answer = fetch(`${run.url}/?channel=slow`, { method: "POST", body: "{}" });
  answer.catch(() => {});
  const deadline = Date.now() + 10_000;
  for (;;) {
    const channel = (await (await fetch(`${run.url}/v1/channels/slow`, { headers: AUTH })).json()) as any;
    if (channel.stats?.pending === "1") return { answer };
    if (Date.now() > deadline) throw new Error(`the hook was not stored: ${JSON.stringify(channel)}`);
    await Bun.sleep(10);
  }
}

async function waitFor(read: () => string, text: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!read().includes(text)) {
    if (Date.now() > deadline) throw new Error(`never printed "${text}": ${read()}`);
    await Bun.sleep(10);
  }
}

test("on SIGTERM a delayed custom answer goes out within the 5 s grace with its status and body, and its hook is kept", async () => {
  const bin = await buildBinary();
  const dir = configured();
  const run = await startProcess([bin], dir);
  const { answer } = await caughtAndWaiting(run);
  const signalled = performance.now();
  run.proc.kill("SIGTERM");
  const response = await answer;
  const waited = performance.now() - signalled;
  const body = await response.text();
  expect(response.status).toBe(202);
  expect(body).toMatch(/^later [0-9a-z]{26}$/);
  // The grace is given in full, and no more than that (the delay was 5 minutes).
  expect(waited).toBeGreaterThan(4_500);
  expect(waited).toBeLessThan(15_000);
  expect(await run.proc.exited).toBe(0);
  expect(run.output()).toContain("stopped");

  const again = await startProcess([bin], dir);
  try {
    const hook = await fetch(`${again.url}/v1/hooks/${body.slice("later ".length)}`, { headers: AUTH });
    expect(hook.status).toBe(200);
  } finally {
    again.proc.kill("SIGTERM");
    // The restarted one has no delayed answer to wait for.
    expect(await again.proc.exited).toBe(0);
  }
}, 60_000);

for (const [first, second] of [
  ["SIGTERM", "SIGTERM"],
  ["SIGINT", "SIGINT"],
  ["SIGTERM", "SIGINT"],
] as const) {
  test(`a second signal stops at once (${first}, then ${second}), saying so, with a non-zero status; caught hooks stay stored`, async () => {
    const bin = await buildBinary();
    const dir = configured();
    const run = await startProcess([bin], dir);
    const { answer } = await caughtAndWaiting(run);
    run.proc.kill(first);
    await waitFor(run.output, `${first}: finishing in-flight requests`);
    run.proc.kill(second);
    const code = await run.proc.exited;
    // The first signal alone waits the 5 s grace and then exits 0 (the test above): this status
    // says the second signal stopped it (a clock would not: a loaded machine takes seconds to exit).
    expect(code).toBe(second === "SIGINT" ? 130 : 143);
    await waitFor(run.errors, `mailroom: ${second} again: stopping at once`);
    await answer.then(
      () => {},
      () => {},
    );

    const again = await startProcess([bin], dir);
    try {
      const channel = (await (await fetch(`${again.url}/v1/channels/slow`, { headers: AUTH })).json()) as any;
      expect(channel.stats.pending).toBe("1");
    } finally {
      again.proc.kill("SIGTERM");
      await again.proc.exited;
    }
  }, 60_000);
}
