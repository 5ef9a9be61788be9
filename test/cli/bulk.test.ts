/** `mailroom hooks bulk` and `mailroom views` as processes against a running Mailroom (piped: plain lines). */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { removeTempDirs } from "../helpers/binary";
import { runCli, serveFromSource, type Served } from "./run";

afterAll(removeTempDirs);
setDefaultTimeout(60_000);

let served: Served;
const cli = (args: string[]) => runCli(args, { cwd: served.dir });

describe("hooks bulk and views from the command line", async () => {
  served = await serveFromSource();
  afterAll(() => served.stop());
  const catchHooks = async (channel: string, n: number) => {
    for (let i = 0; i < n; i++) expect((await fetch(`${served.url}/?channel=${channel}`, { method: "POST", body: `{"n":${i}}` })).status).toBe(200);
  };

  test("a dry run counts; piped without --yes nothing is done; with --yes the job runs and prints its lines", async () => {
    await catchHooks("cli", 5);
    const dry = await cli(["hooks", "bulk", "discard", "-q", "channel:cli", "--dry-run"]);
    expect(dry).toMatchObject({ code: 0, stdout: "5 hooks would be touched by discard\n" });
    const refused = await cli(["hooks", "bulk", "discard", "-q", "channel:cli"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("add --yes");
    const done = await cli(["hooks", "bulk", "discard", "-q", "channel:cli", "--yes"]);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/^[0-9a-z]{26} {2}done {2}5 of 5 hooks\n$/);
    // Piped: plain progress lines, no bar and no escape.
    expect(done.stderr).toContain("done  5/5  5 done, 0 skipped, 0 failed\n");
    expect(done.stderr).not.toContain("\r");
    const exported = await cli(["hooks", "bulk", "export", "-q", "channel:cli"]);
    expect(
      exported.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).status),
    ).toEqual(Array(5).fill("discarded"));
    const bad = await cli(["hooks", "bulk", "retry", "-q", "(", "--yes"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("400");
  });

  test("views save, ls with counts, rm", async () => {
    await catchHooks("viewed", 2);
    expect((await cli(["views", "save", "mine", "-q", "channel:viewed"])).code).toBe(0);
    const ls = await cli(["views", "ls", "--counts"]);
    expect(ls.stdout).toMatch(/^mine\s+own\s+2\s+channel:viewed\n$/);
    expect((await cli(["views", "rm", "mine"])).stdout).toBe("mine  removed\n");
    expect((await cli(["views", "ls"])).stderr).toContain("no saved views");
  });
});
