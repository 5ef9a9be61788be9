import { afterAll, expect, test } from "bun:test";
import { linkSync, mkdirSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildBinary, removeTempDirs, startProcess, tempDir } from "./helpers/binary";

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

/** A folder with a config whose data file is `path` (relative to it), listening on port 0. */
function configured(dir: string, path: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "mailroom.toml"), `[server]\nport = 0\n[storage]\npath = "${path}"\n`);
  return dir;
}

test("a second instance reaching the running one's data file through a symlink (to the file, to its folder) is refused", async () => {
  const bin = await buildBinary();
  const root = tempDir("mailroom-symlink-");
  const first = await startProcess([bin], configured(join(root, "a"), "data/hooks.db"));
  try {
    const other = configured(join(root, "b"), "link.db");
    symlinkSync(join(root, "a/data/hooks.db"), join(other, "link.db"));
    symlinkSync(join(root, "a/data"), join(other, "folder"));
    for (const path of ["link.db", "folder/hooks.db"]) {
      const second = await refused([bin], configured(other, path));
      expect({ path, code: second.code }).toEqual({ path, code: 1 });
      expect(second.err).toContain(`the data file ${path} (`);
      expect(second.err).toContain("a/data/hooks.db) is in use by another Mailroom");
      expect(second.out).not.toContain("listening on");
    }
    // The first one is unharmed.
    expect((await fetch(`${first.url}/?channel=still`, { method: "POST", body: "{}" })).status).toBe(200);
  } finally {
    first.proc.kill("SIGTERM");
    await first.proc.exited;
  }
  // Once it stopped, the symlink is a way to the same data: an instance starts on it.
  const third = await startProcess([bin], configured(join(root, "b"), "link.db"));
  third.proc.kill("SIGTERM");
  expect(await third.proc.exited).toBe(0);
}, 60_000);

test("a hard link to the running one's data file is refused (and the file is, while it has two names)", async () => {
  const bin = await buildBinary();
  const root = tempDir("mailroom-hardlink-");
  const first = await startProcess([bin], configured(join(root, "a"), "data/hooks.db"));
  const other = configured(join(root, "b"), "hard.db");
  linkSync(join(root, "a/data/hooks.db"), join(other, "hard.db"));
  try {
    const second = await refused([bin], other);
    expect(second.code).toBe(1);
    expect(second.err).toContain("the data file hard.db has 2 hard links");
    expect(second.out).not.toContain("listening on");
    // The first one is unharmed.
    expect((await fetch(`${first.url}/?channel=still`, { method: "POST", body: "{}" })).status).toBe(200);
  } finally {
    first.proc.kill("SIGTERM");
    await first.proc.exited;
  }
  // Restarted on its own name, the first one is refused too while the other name exists; once it is gone, it starts.
  expect((await refused([bin], join(root, "a"))).err).toContain("the data file data/hooks.db has 2 hard links");
  unlinkSync(join(other, "hard.db"));
  const again = await startProcess([bin], join(root, "a"));
  expect((await fetch(`${again.url}/?channel=still`, { method: "POST", body: "{}" })).status).toBe(200);
  again.proc.kill("SIGTERM");
  expect(await again.proc.exited).toBe(0);
}, 60_000);
