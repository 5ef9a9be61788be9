import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMailroom } from "../../src/testing";

/** Whether a process has ended (a zombie nobody reaped yet has ended too). */
function ended(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** Resolves once `pid` has ended; rejects after `ms`. Another process's end cannot be awaited, so this looks every 20 ms. */
async function endOf(pid: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ended(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still runs after ${ms} ms`);
    await Bun.sleep(20);
  }
}

test("a test process killed with SIGKILL leaves no Mailroom running, and the next start removes its folder", async () => {
  const suite = Bun.spawn([process.execPath, join(import.meta.dir, "fixtures/killed-suite.ts")], { stdout: "pipe", stderr: "inherit" });
  const reader = suite.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the suite exited: ${text}`);
    text += new TextDecoder().decode(value);
  }
  const started = JSON.parse(text) as { pid: number; url: string; dir: string };
  expect((await fetch(`${started.url}/openapi/`)).status).toBe(200);
  expect(existsSync(started.dir)).toBe(true);

  suite.kill("SIGKILL");
  await suite.exited;
  // Mailroom looks for its parent every 250 ms and then stops gracefully.
  await endOf(started.pid, 5_000);
  expect(
    await fetch(`${started.url}/openapi/`).then(
      () => "answered",
      () => "refused",
    ),
  ).toBe("refused");

  // Nothing could remove the killed process's folder; the next start does.
  await using mr = await startMailroom();
  expect(existsSync(started.dir)).toBe(false);
  expect(existsSync(mr.dir)).toBe(true);
});

test("stop() ends the server and removes its folder; a second stop() is harmless", async () => {
  const mr = await startMailroom({ config: '[server]\nhost = "127.0.0.1"\n' });
  expect(readFileSync(join(mr.dir, "mailroom.toml"), "utf8")).toContain("port = 0");
  await mr.stop();
  expect(ended(mr.pid)).toBe(true);
  expect(existsSync(mr.dir)).toBe(false);
  await mr.stop();
});

test("await using disposes the instance at the end of the block", async () => {
  let seen: { pid: number; dir: string };
  {
    await using mr = await startMailroom();
    seen = { pid: mr.pid, dir: mr.dir };
    expect(ended(mr.pid)).toBe(false);
  }
  expect(ended(seen.pid)).toBe(true);
  expect(existsSync(seen.dir)).toBe(false);
});

test("an invalid config rejects with every problem the server listed, and leaves nothing behind", async () => {
  const folders = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`mailroom-test-${process.pid}-`));
  const before = folders();
  const error = await startMailroom({ config: { server: { port: "eighty" as unknown as number }, channels: [{ name: "Bad Name" }] } }).catch((e: Error) => e);
  expect(error).toBeInstanceOf(Error);
  expect(String(error)).toContain("exited (code 1) before it was ready");
  expect(String(error)).toContain("server.port");
  expect(String(error)).toContain("channels[0].name");
  expect(String(await startMailroom({ config: "[server" }).catch((e: Error) => e))).toContain("TOML");
  expect(folders()).toEqual(before);
});
