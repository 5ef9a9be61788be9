import { afterAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "../../src/cli";
import { COMMANDS } from "../../src/cli/commands";
import { runCli as dispatch } from "../../src/cli/dispatch";
import type { Io } from "../../src/lib/io";
import { suggest } from "../../src/lib/suggest";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { runCli } from "./run";

afterAll(removeTempDirs);

/** Runs argv through the command table in this process: what it printed and its exit code. */
async function inProcess(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: Io = {
    out: (t) => void (out += t),
    outBytes: () => {},
    err: (t) => void (err += t),
    written: async () => {},
    stdin: async () => new Uint8Array(),
    env: {},
    now: Date.now,
  };
  const code = await dispatch(argv, io, "9.9.9");
  return { code, out, err };
}

test("an unknown command or flag says so (it used to be '... needs a value')", () => {
  expect(parseArgs(["version"])).toEqual({ kind: "error", message: "unknown command: version" });
  expect(parseArgs(["serve", "--colour"])).toEqual({ kind: "error", message: "unknown flag for serve: --colour" });
  expect(parseArgs(["serve", "--prot", "1"])).toEqual({ kind: "error", message: "unknown flag for serve: --prot (did you mean --port?)" });
  expect(parseArgs(["--colour"])).toEqual({ kind: "error", message: "unknown flag for serve: --colour" });
  expect(parseArgs(["check-config", "--quiet"])).toEqual({ kind: "error", message: "unknown flag for check-config: --quiet" });
  expect(parseArgs(["serve", "extra"])).toEqual({ kind: "error", message: "unexpected argument: extra" });
  expect(parseArgs(["serve", "--port"])).toEqual({ kind: "error", message: "--port needs a value" });
  expect(parseArgs(["serve", "--quiet", "--log-format=json", "--forward-to", "http://x", "--channel", "c"])).toEqual({
    kind: "serve",
    quiet: true,
    logFormat: "json",
    forwardTo: { url: "http://x", channel: "c" },
  });
});

test("--parent-pid takes a process id, nothing else", () => {
  expect(parseArgs(["serve", "--parent-pid", "4242"])).toEqual({ kind: "serve", parentPid: 4242 });
  expect(parseArgs(["--parent-pid=abc"])).toEqual({ kind: "error", message: "--parent-pid: not a process id: abc" });
  expect(parseArgs(["serve", "--parent-pid", "-1"])).toEqual({ kind: "error", message: "--parent-pid: not a process id: -1" });
  expect(parseArgs(["check-config", "--parent-pid", "1"])).toEqual({ kind: "error", message: "unknown flag for check-config: --parent-pid" });
});

test("did you mean: a typo of one name, or the start of exactly one; nothing for what is far from every name", () => {
  const names = COMMANDS.map((c) => c.name);
  expect(suggest("hoks", names)).toBe("hooks");
  expect(suggest("sevre", names)).toBe("serve");
  expect(suggest("chek-config", names)).toBe("check-config");
  expect(suggest("rep", names)).toBe("replay");
  expect(suggest("frobnicate", names)).toBeUndefined();
  expect(suggest("x", names)).toBeUndefined();
});

test("mailroom version: the one line, a did you mean, where the usage is; exit code 2 and no 30 lines of help", async () => {
  const ran = await runCli(["version"]);
  expect(ran.code).toBe(2);
  expect(ran.stderr).toBe("mailroom: unknown command: version (did you mean --version?)\nRun 'mailroom --help' for usage.\n");
  expect(ran.stdout).toBe("");
});

test("every command's --help (and mailroom help NAME) prints its usage, exit code 0", async () => {
  for (const { name } of COMMANDS) {
    for (const argv of [
      [name, "--help"],
      ["help", name],
      [name, "-h"],
    ]) {
      const ran = await inProcess(argv);
      expect([argv.join(" "), ran.code, ran.err]).toEqual([argv.join(" "), 0, ""]);
      expect(ran.out).toStartWith("Usage:\n");
      expect(ran.out).toContain(name === "serve" ? "mailroom [serve]" : `mailroom ${name} `);
    }
  }
  const sub = await inProcess(["hooks", "ls", "--help"]);
  expect(sub.out).toContain("mailroom hooks show ID");
  const all = await inProcess(["--help"]);
  expect(all.out).toStartWith("mailroom 9.9.9: ");
  for (const { name } of COMMANDS) expect(all.out).toContain(name === "serve" ? "mailroom [serve]" : `mailroom ${name} `);
  expect(await inProcess(["--version"])).toEqual({ code: 0, out: "9.9.9\n", err: "" });
});

test("usage mistakes of every kind of command: one line, then the command's --help", async () => {
  const cases: [string[], string][] = [
    [["hoks", "ls"], "mailroom: unknown command: hoks (did you mean hooks?)\nRun 'mailroom --help' for usage.\n"],
    [["serve", "--prot", "1"], "mailroom: unknown flag for serve: --prot (did you mean --port?)\nRun 'mailroom serve --help' for usage.\n"],
    [["token", "shwo"], "mailroom: unknown token subcommand: shwo (did you mean show?)\nRun 'mailroom token --help' for usage.\n"],
    [["user", "ad", "a@b.c"], "mailroom: unknown user subcommand: ad (did you mean add?)\nRun 'mailroom user --help' for usage.\n"],
    [["send", "c", "--sing", "github"], "mailroom: unknown flag --sing (did you mean --sign?)\nRun 'mailroom send --help' for usage.\n"],
  ];
  for (const [argv, err] of cases) expect(await inProcess(argv)).toEqual({ code: 2, out: "", err });
});

test("serve on a port in use fails before it creates anything: no data folder", async () => {
  const busy = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
  try {
    const dir = tempDir("mailroom-busy-");
    const ran = await runCli(["serve", "--host", "127.0.0.1", "--port", String(busy.port)], { cwd: dir });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain(`port ${busy.port} on 127.0.0.1 is already in use`);
    expect(existsSync(join(dir, "data"))).toBe(false);
  } finally {
    busy.stop(true);
  }
});
