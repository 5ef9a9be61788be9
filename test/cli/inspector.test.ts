/** The inspector's commands (docs/cli.md): hooks ls --search, against a running Mailroom from source. */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { removeTempDirs } from "../helpers/binary";
import { runCli, serveFromSource, type Served } from "./run";

afterAll(removeTempDirs);
setDefaultTimeout(30_000);

let served: Served;
const cli = (args: string[], opts: Parameters<typeof runCli>[1] = {}) => runCli(args, { cwd: served.dir, ...opts });
const idOf = (stdout: string) => /"id":"(\w+)"/.exec(stdout)![1]!;

describe("the inspector's commands", async () => {
  served = await serveFromSource();
  afterAll(() => served.stop());

  test("hooks ls --search finds hooks by words and field terms, with the other filters", async () => {
    const a = idOf((await cli(["send", "orders", "--data", '{"order":{"id":"ord_77"},"note":"gift wrap"}'])).stdout);
    const b = idOf((await cli(["send", "orders", "--data", '{"order":{"id":"ord_78"}}', "--header", "x-github-event: push"])).stdout);
    const found = await cli(["hooks", "ls", "--search", "gift wrap"]);
    expect(found.code).toBe(0);
    expect(
      found.stdout
        .trim()
        .split("\n")
        .map((l) => l.split("  ")[0]),
    ).toEqual([a]);
    const field = await cli(["hooks", "ls", "--search", "payload.order.id:ord_78 type:push", "--channel", "orders", "--json"]);
    expect(JSON.parse(field.stdout).map((h: { id: string }) => h.id)).toEqual([b]);
    const none = await cli(["hooks", "ls", "--search", "gift", "--status", "handled"]);
    expect(none.stderr).toBe("no hooks\n");
    const bad = await cli(["hooks", "ls", "--search", "ab"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("too short");
  });
});
