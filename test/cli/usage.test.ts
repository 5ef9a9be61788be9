import { afterAll, expect, test } from "bun:test";
import { parseArgs } from "../../src/cli";
import { removeTempDirs } from "../helpers/binary";
import { runCli } from "./run";

afterAll(removeTempDirs);

test("an unknown command or flag says so (it used to be '... needs a value')", () => {
  expect(parseArgs(["version"])).toEqual({ kind: "error", message: "unknown command: version" });
  expect(parseArgs(["serve", "--colour"])).toEqual({ kind: "error", message: "unknown flag for serve: --colour" });
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

test("mailroom version prints the error and the usage, exit code 2", async () => {
  const ran = await runCli(["version"]);
  expect(ran.code).toBe(2);
  expect(ran.stderr).toStartWith("mailroom: unknown command: version\n\n");
  expect(ran.stderr).toContain("Usage:\n  mailroom [serve]");
  expect(ran.stderr).toContain("mailroom send CHANNEL");
});
