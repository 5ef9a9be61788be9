/**
 * Every command writes all of its output before it exits: into a pipe whose reader is slower than
 * the command (a process of its own reading in small chunks with pauses), a reader that goes away
 * (`| head -1`: status 0, nothing said) and a device that refuses the write (`> /dev/full`: a
 * message and a non-zero status). The commands run as processes, their stdout a real pipe.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { MAIN, runCli, serveFromSource, type Served } from "./run";

afterAll(removeTempDirs);
setDefaultTimeout(60_000);

const SLOW_READER = join(import.meta.dir, "slow-reader.ts");
const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

type Piped = { code: number; stderr: string; read: Uint8Array };

/**
 * Starts `mailroom ARGS | READER` in sh, the command's status and stderr kept in files. READER is
 * sh, by default the slow reader, whose bytes end up in `read`.
 */
function startPipe(served: Served, args: string[], reader = '"$BUN" "$SLOW" "$D/read"'): { dir: string; done: Promise<Piped> } {
  const dir = tempDir("mailroom-pipe-");
  const script = `{ "$@" 2>"$D/stderr"; echo $? >"$D/status"; } | ${reader}`;
  const proc = Bun.spawn(["sh", "-c", script, "sh", process.execPath, MAIN, ...args], {
    cwd: served.dir,
    env: { ...process.env, D: dir, BUN: process.execPath, SLOW: SLOW_READER },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "inherit",
  });
  const done = proc.exited.then(() => ({
    code: Number(readFileSync(join(dir, "status"), "utf8")),
    stderr: readFileSync(join(dir, "stderr"), "utf8"),
    read: existsSync(join(dir, "read")) ? new Uint8Array(readFileSync(join(dir, "read"))) : new Uint8Array(),
  }));
  return { dir, done };
}

const pipe = (served: Served, args: string[], reader?: string): Promise<Piped> => startPipe(served, args, reader).done;

describe("output into a pipe, a slow reader, a reader that goes away, a full device", async () => {
  const served = await serveFromSource();
  afterAll(() => served.stop());
  // Over 1 MiB, random: a cut anywhere changes the hash.
  const body = new Uint8Array(1_500_000);
  for (let i = 0; i < body.length; i += 65_536) crypto.getRandomValues(body.subarray(i, i + 65_536));
  const sent = await runCli(["send", "big", "--data", "-", "--header", "content-type: application/octet-stream"], { cwd: served.dir, stdin: body });
  const id = /"id":"(\w+)"/.exec(sent.stdout)?.[1];

  test("hooks body: the exact bytes, to a reader slower than the command", async () => {
    expect(id).toBeDefined();
    const piped = await pipe(served, ["hooks", "body", id!]);
    expect(piped.stderr).toBe("");
    expect(piped.code).toBe(0);
    expect(piped.read.length).toBe(body.length);
    expect(sha256(piped.read)).toBe(sha256(body));
  });

  test("hooks ls --json: the whole document, to a slow reader", async () => {
    const piped = await pipe(served, ["hooks", "ls", "--json", "--channel", "big"]);
    expect(piped.code).toBe(0);
    const hooks = JSON.parse(new TextDecoder().decode(piped.read)) as { id: string; body: string }[];
    expect(hooks.map((h) => h.id)).toEqual([id!]);
    expect(sha256(Buffer.from(hooks[0]!.body, "base64"))).toBe(sha256(body));
  });

  test("export: every line, to a slow reader", async () => {
    const piped = await pipe(served, ["export", "--channel", "big"]);
    expect(piped.code).toBe(0);
    const lines = new TextDecoder().decode(piped.read).split("\n");
    expect(lines.pop()).toBe("");
    const hook = JSON.parse(lines.find((l) => l.includes(id!))!) as { body: string };
    expect(sha256(Buffer.from(hook.body, "base64"))).toBe(sha256(body));
  });

  test("| head -1: the reader goes away, the command ends quietly with status 0", async () => {
    for (const args of [["export"], ["hooks", "body", id!], ["hooks", "ls", "--json"]]) {
      const piped = await pipe(served, args, "head -1 >/dev/null");
      expect({ args, stderr: piped.stderr, code: piped.code }).toEqual({ args, stderr: "", code: 0 });
    }
  });

  test("tail --json | head -1: the next hook after head went away ends tail quietly with status 0", async () => {
    const { dir, done } = startPipe(served, ["tail", "--json", "--channel", "tailed"], 'head -1 >"$D/read"');
    let ended = false;
    void done.then(() => (ended = true));
    const stderr = join(dir, "stderr");
    for (let i = 0; !(existsSync(stderr) && readFileSync(stderr, "utf8").includes("following hooks")); i++) {
      if (i > 1000) throw new Error(`tail did not start: ${existsSync(stderr) ? readFileSync(stderr, "utf8") : ""}`);
      await Bun.sleep(20);
    }
    // head takes the first line and goes; tail finds out when it writes the next.
    for (let i = 0; !ended && i < 20; i++) await runCli(["send", "tailed", "--data", `{"n":${i}}`], { cwd: served.dir });
    const piped = await done;
    expect(piped.stderr).toStartWith("following hooks at ");
    expect(piped.stderr.split("\n").length).toBe(2);
    expect(piped.code).toBe(0);
    expect(JSON.parse(new TextDecoder().decode(piped.read)).channel).toBe("tailed");
  });

  test.skipIf(!existsSync("/dev/full"))("> /dev/full: the write error is said on stderr, the status is not 0", async () => {
    for (const args of [["hooks", "body", id!], ["export"], ["providers", "--json"], ["check-config", "--config", "mailroom.toml"]]) {
      const out = Bun.file("/dev/full");
      const proc = Bun.spawn([process.execPath, MAIN, ...args], { cwd: served.dir, stdin: "ignore", stdout: out, stderr: "pipe" });
      const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
      expect({ args, stderr }).toEqual({ args, stderr: expect.stringMatching(/^mailroom: could not write the output: .*ENOSPC.*\n$/) });
      expect({ args, code }).toEqual({ args, code: 1 });
    }
  });
});

test("serve | head -1: the server outlives its log's reader and keeps catching", async () => {
  const dir = tempDir("mailroom-serve-pipe-");
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  await Bun.write(join(dir, "m.toml"), `[server]\nhost = "127.0.0.1"\nport = ${port}\n[storage]\npath = "data/m.db"\n`);
  const script = `{ "$BUN" "$MAIN" serve --config "$D/m.toml" 2>"$D/stderr" & echo $! >"$D/pid"; wait; } | head -1 >/dev/null`;
  const sh = Bun.spawn(["sh", "-c", script], {
    cwd: dir,
    env: { ...process.env, D: dir, BUN: process.execPath, MAIN },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    let up = false;
    for (const deadline = Date.now() + 30_000; !up && Date.now() < deadline; ) {
      up = await fetch(`${url}/`).then(
        (r) => r.ok,
        () => false,
      );
      if (!up) await Bun.sleep(50);
    }
    expect(up).toBe(true);
    // Each hook is a log line into the pipe whose reader is gone.
    for (let i = 0; i < 10; i++) {
      const caught = await fetch(`${url}/?channel=piped`, { method: "POST", body: `{"n":${i}}` });
      expect(caught.status).toBe(200);
    }
    expect((await fetch(`${url}/`)).ok).toBe(true);
    expect(readFileSync(join(dir, "stderr"), "utf8")).not.toContain("EPIPE");
  } finally {
    const pid = Number(readFileSync(join(dir, "pid"), "utf8"));
    try {
      process.kill(pid, "SIGTERM");
    } catch {}
    await sh.exited;
  }
});
