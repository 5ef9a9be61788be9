/** `mailroom alerts ls|add|rm` against a running Mailroom (from source) with one rule in its config file. */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { removeTempDirs } from "../helpers/binary";
import { runCli, serveFromSource } from "../cli/run";

afterAll(removeTempDirs);
setDefaultTimeout(60_000);

describe("mailroom alerts", () => {
  test("ls lists the file's rule and those added; add is checked as check-config checks; rm deletes", async () => {
    const served = await serveFromSource({
      notifiers: [{ name: "ops", kind: "slack", url: "https://hooks.example/x" }],
      alerts: [{ name: "quiet", kind: "silence", for: "30m" }],
    });
    afterAll(() => served.stop());
    const cli = (args: string[]) => runCli(args, { cwd: served.dir });
    let ran = await cli([
      "alerts",
      "add",
      "storm",
      "--kind",
      "rate",
      "--channels",
      "stripe,github",
      "--threshold",
      "50",
      "--window",
      "1m",
      "--query",
      "event:push",
      "--notify",
      "ops",
    ]);
    expect([ran.code, ran.stderr]).toEqual([0, ""]);
    expect(ran.stdout).toBe("storm  rate            api     channels=stripe,github query=event:push threshold=50 window=1m notify=ops\n");
    ran = await cli(["alerts", "ls"]);
    expect(ran.stdout).toBe(
      "quiet  silence         config  channels=* for=30m\nstorm  rate            api     channels=stripe,github query=event:push threshold=50 window=1m notify=ops\n",
    );
    expect(JSON.parse((await cli(["alerts", "ls", "--json"])).stdout).map((r: { name: string }) => r.name)).toEqual(["quiet", "storm"]);
    // A query is text its author chose: a terminal escape or a bidi mark in it is printed escaped.
    ran = await cli(["alerts", "add", "odd", "--kind", "rate", "--threshold", "1", "--window", "1m", "--query", "evil\u001b[2Jword\u202eflip"]);
    expect([ran.code, ran.stdout]).toEqual([0, "odd  rate            api     channels=* query=evil\\x1b[2Jword\\u202eflip threshold=1 window=1m\n"]);
    expect((await cli(["alerts", "ls"])).stdout).not.toContain("\u001b");
    expect((await cli(["alerts", "rm", "odd"])).code).toBe(0);

    ran = await cli(["alerts", "add", "bad", "--kind", "rate", "--threshold", "5", "--notify", "pager"]);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('invalid rule: window: a rate rule needs window; notify[0]: unknown notifier "pager" (not in [[notifiers]])');
    expect((await cli(["alerts", "add", "x", "--threshold", "five", "--kind", "rate"])).code).toBe(2);
    expect((await cli(["alerts", "add", "x"])).stderr).toContain("needs --kind");
    ran = await cli(["alerts", "rm", "quiet"]);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain("is in the config file");
    ran = await cli(["alerts", "rm", "storm"]);
    expect([ran.code, ran.stdout]).toEqual([0, "storm: deleted; its issues are resolved\n"]);
    expect((await cli(["alerts", "ls"])).stdout).toBe("quiet  silence         config  channels=* for=30m\n");
    expect((await cli(["alerts", "frob"])).code).toBe(2);
  });
});
