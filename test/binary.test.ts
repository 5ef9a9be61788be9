import { afterAll, expect, test } from "bun:test";
import { writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { buildBinary, removeTempDirs, startProcess, tempDir } from "./helpers/binary";

afterAll(removeTempDirs);

test("the built executable starts on a fresh data file, migrates, catches a hook and serves it back", async () => {
  const bin = await buildBinary();
  const dir = tempDir("mailroom-run-");
  writeFileSync(join(dir, "mailroom.toml"), `[server]\nport = 0\n[storage]\npath = "data/hooks.db"\n[[api_keys]]\nlabel = "ci"\ntoken = "binary-test-token"\n`);

  const version = Bun.spawnSync([bin, "--version"]);
  expect(version.stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+$/);
  expect(Bun.spawnSync([bin, "check-config"], { cwd: dir }).exitCode).toBe(0);

  const run = await startProcess([bin], dir);
  try {
    expect(existsSync(join(dir, "data/hooks.db"))).toBe(true);
    const body = JSON.stringify({ hello: "binary" });
    const caught = await fetch(`${run.url}/?channel=smoke`, { method: "POST", body, headers: { "content-type": "application/json" } });
    expect(caught.status).toBe(200);
    const { id } = (await caught.json()) as { id: string };
    const hook = (await (await fetch(`${run.url}/v1/hooks/${id}`, { headers: { authorization: "Bearer binary-test-token" } })).json()) as any;
    expect(Buffer.from(hook.body, "base64").toString()).toBe(body);
    expect(hook.payload).toEqual({ hello: "binary" });
    expect(run.output()).toContain("api keys: ci");
    expect(run.output()).not.toContain("binary-test-token");
  } finally {
    run.proc.kill("SIGTERM");
    expect(await run.proc.exited).toBe(0);
  }
  expect(run.output()).toContain("stopped");
}, 60_000);

test("check-config prints every problem with its key path and exits non-zero", async () => {
  const bin = await buildBinary();
  const dir = tempDir("mailroom-cfg-");
  writeFileSync(join(dir, "bad.toml"), `[server]\nport = "x"\nfoo = 1\n[[channels]]\nname = "ok"\nguards = ["missing"]\n`);
  const res = Bun.spawnSync([bin, "check-config", "--config", "bad.toml"], { cwd: dir });
  expect(res.exitCode).toBe(1);
  const err = res.stderr.toString();
  expect(err).toContain("server.port");
  expect(err).toContain("server.foo: unknown key");
}, 60_000);

test("the first start without configured keys prints a token once, and it works", async () => {
  const bin = await buildBinary();
  const dir = tempDir("mailroom-key-");
  const first = await startProcess([bin, "--port", "0"], dir);
  let token: string | undefined;
  try {
    token = /Bearer (mr_\S+)/.exec(first.output())?.[1];
    expect(token).toBeString();
    expect((await fetch(`${first.url}/v1/channels`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  } finally {
    first.proc.kill("SIGINT");
    await first.proc.exited;
  }
  const second = await startProcess([bin, "--port", "0"], dir);
  try {
    expect(second.output()).not.toContain("Bearer mr_");
    expect((await fetch(`${second.url}/v1/channels`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  } finally {
    second.proc.kill("SIGTERM");
    await second.proc.exited;
  }
}, 60_000);

test("SIGTERM lets a request in flight finish: its hook is answered 200 and kept", async () => {
  const bin = await buildBinary();
  const dir = tempDir("mailroom-term-");
  writeFileSync(join(dir, "mailroom.toml"), `[server]\nport = 0\n[[api_keys]]\nlabel = "ci"\ntoken = "binary-test-token"\n`);
  const run = await startProcess([bin], dir);
  const port = Number(new URL(run.url).port);
  let answer = "";
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: { data: (_s, chunk) => void (answer += chunk.toString()) },
  });
  const body = JSON.stringify({ slow: "upload" });
  // With `expect: 100-continue` (as curl sends a larger body), the server's "100 Continue" says the
  // request reached its handler: from then on it is in flight.
  socket.write(
    `POST /?channel=slow HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nexpect: 100-continue\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
  );
  const until = async (what: string, done: () => boolean) => {
    for (const deadline = Date.now() + 15_000; !done(); await Bun.sleep(20))
      if (Date.now() > deadline) throw new Error(`no ${what}: ${answer}\n${run.output()}`);
  };
  await until("100 Continue", () => answer.startsWith("HTTP/1.1 100 Continue\r\n\r\n"));
  run.proc.kill("SIGTERM");
  // The rest of the body arrives once the server is stopping.
  await until("stopping line", () => run.output().includes("SIGTERM: finishing in-flight requests"));
  socket.write(body.slice(5));
  await until("answer", () => answer.includes("\r\n\r\n{"));
  socket.end();
  expect(await run.proc.exited).toBe(0);
  answer = answer.slice("HTTP/1.1 100 Continue\r\n\r\n".length);
  expect(answer).toStartWith("HTTP/1.1 200");
  const id = /"id":"([0-9a-z]{26})"/.exec(answer)![1]!;
  const again = await startProcess([bin], dir);
  try {
    const hook = (await (await fetch(`${again.url}/v1/hooks/${id}`, { headers: { authorization: "Bearer binary-test-token" } })).json()) as any;
    expect(Buffer.from(hook.body, "base64").toString()).toBe(body);
  } finally {
    again.proc.kill("SIGTERM");
    await again.proc.exited;
  }
}, 60_000);
