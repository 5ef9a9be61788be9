/** `mailroom issues ls|ack|resolve` against a running Mailroom (from source) whose silence rule opened an issue. */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { removeTempDirs } from "../helpers/binary";
import { eventually } from "../helpers/target";
import { runCli, serveFromSource } from "../cli/run";

afterAll(removeTempDirs);
setDefaultTimeout(60_000);

describe("mailroom issues", () => {
  test("ls shows the open issue; ack and resolve move it; --state filters; usage errors", async () => {
    const served = await serveFromSource({ channels: [{ name: "quiet" }], alerts: [{ name: "quiet-rule", kind: "silence", channels: ["quiet"], for: "1ms" }] });
    afterAll(() => served.stop());
    const cli = (args: string[]) => runCli(args, { cwd: served.dir });
    const line = await eventually("an issue", async () => (await cli(["issues", "ls"])).stdout || undefined);
    const id = line.split("  ")[0]!;
    expect(line).toMatch(new RegExp(`^${id}  open {10}quiet-rule  since \\S+Z  x1  no hook on quiet for 1ms\\n$`));
    let ran = await cli(["issues", "ack", id]);
    expect(ran.stderr).toBe("");
    expect(ran.stdout).toBe(`${id}  acknowledged\n`);
    expect((await cli(["issues", "ls", "--state", "open"])).stderr).toBe("no issues\n");
    ran = await cli(["issues", "resolve", id]);
    expect(ran.stdout).toBe(`${id}  resolved\n`);
    expect(JSON.parse((await cli(["issues", "ls", "--state", "resolved", "--json"])).stdout)[0].history.map((h: { action: string }) => h.action)).toEqual([
      "opened",
      "acknowledged",
      "resolved",
    ]);
    ran = await cli(["issues", "resolve", id]);
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toContain("cannot be resolved");
    ran = await cli(["issues", "close", id]);
    expect(ran.code).toBe(2);
    expect((await cli(["issues", "ack"])).stderr).toContain("issue id");
  });
});
