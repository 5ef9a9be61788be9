import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildBinary, removeTempDirs, startProcess, tempDir, type Running } from "./helpers/binary";

afterAll(removeTempDirs);

/** Runs the binary, which must not start: its exit code and what it printed (killed if it listens after all). */
async function refused(argv: string[], cwd: string) {
  const proc = Bun.spawn(argv, { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let out = "";
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout) {
    out += decoder.decode(chunk);
    if (out.includes("listening on")) proc.kill(9);
  }
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  return { code, out, err };
}

/** A folder with a config: data in data/hooks.db, listening on port 0 unless the command line says. */
function configured(prefix: string): string {
  const dir = tempDir(prefix);
  writeFileSync(
    join(dir, "mailroom.toml"),
    `[server]\nport = 0\n[storage]\npath = "data/hooks.db"\n[[api_keys]]\nlabel = "ci"\ntoken = "instances-test-token"\n`,
  );
  return dir;
}

async function stop(run: Running): Promise<void> {
  run.proc.kill("SIGTERM");
  await run.proc.exited;
}

test("a second instance on a port already in use refuses to start, and the first one keeps every hook", async () => {
  const bin = await buildBinary();
  const first = await startProcess([bin], configured("mailroom-port-a-"));
  try {
    const port = new URL(first.url).port;
    const second = await refused([bin, "--port", port], configured("mailroom-port-b-"));
    expect(second.code).not.toBe(0);
    expect(second.err).toContain(`port ${port}`);
    expect(second.err).toContain("already in use");
    expect(second.out).not.toContain("listening on");
    // Every sender reaches the first instance: nothing is split off to a second listener.
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${first.url}/?channel=one`, { method: "POST", body: "{}" })));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const channel = (await (await fetch(`${first.url}/v1/channels/one`, { headers: { authorization: "Bearer instances-test-token" } })).json()) as any;
    expect(channel.stats.pending).toBe("20");
  } finally {
    await stop(first);
  }
}, 60_000);

test("a second instance on the same data file refuses to start; after the first is killed with -9, one starts again", async () => {
  const bin = await buildBinary();
  const dir = configured("mailroom-data-");
  const first = await startProcess([bin], dir);
  const second = await refused([bin], dir);
  expect(second.code).not.toBe(0);
  expect(second.err).toContain("data/hooks.db");
  expect(second.err).toContain("another Mailroom");
  expect(second.out).not.toContain("listening on");
  // The first one is unharmed.
  expect((await fetch(`${first.url}/?channel=still`, { method: "POST", body: "{}" })).status).toBe(200);
  first.proc.kill(9);
  await first.proc.exited;
  // The OS drops the lock with the process: a restart after a crash is not refused.
  const third = await startProcess([bin], dir);
  await stop(third);
}, 60_000);
