/** The inspector's commands (docs/cli.md): hooks ls --search, hooks diff, export and import, against Mailroom from source. */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
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

  test("hooks diff prints what was added, removed and changed in headers, query and JSON body; --json the structure", async () => {
    const a = idOf((await cli(["send", "diffs", "--data", '{"order":{"id":1,"gift":true},"tags":["a"]}', "--header", "x-old: 1"])).stdout);
    const b = idOf((await cli(["send", "diffs", "--data", '{"order":{"id":2},"tags":["a","b"]}', "--header", "x-new: 2"])).stdout);
    const text = await cli(["hooks", "diff", a, b]);
    expect(text.code).toBe(0);
    const lines = text.stdout.split("\n");
    expect(lines.slice(0, 2)).toEqual([`--- ${a}`, `+++ ${b}`]);
    for (const line of ['+ headers.x-new: "2"', '- headers.x-old: "1"', "- body.order.gift: true", "~ body.order.id: 1 -> 2", '+ body.tags.1: "b"']) {
      expect(lines).toContain(line);
    }
    const json = JSON.parse((await cli(["hooks", "diff", a, b, "--json"])).stdout);
    expect(json.body.kind).toBe("json");
    expect((await cli(["hooks", "diff", a, a])).stdout).toContain("no differences");
    expect((await cli(["hooks", "diff", a])).code).toBe(2);
  });

  test("export writes JSON lines (or HAR) of a search; import of that file into another Mailroom keeps ids and bytes, and twice skips", async () => {
    await cli(["send", "moving", "--data", '{"keep":"me"}']);
    await cli(["send", "moving", "--data", "-", "--header", "content-type: application/octet-stream"], { stdin: new Uint8Array([0, 255, 1]) });
    const file = join(served.dir, "moving.jsonl");
    expect((await cli(["export", "--channel", "moving", "--output", file])).code).toBe(0);
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines.length).toBe(2);
    const har = JSON.parse((await cli(["export", "--search", "payload.keep:me", "--format", "har"])).stdout);
    expect(har.log.entries.length).toBe(1);

    const other = await serveFromSource();
    try {
      const there = (args: string[], opts: Parameters<typeof runCli>[1] = {}) => runCli(args, { cwd: other.dir, ...opts });
      const imported = await there(["import", file]);
      expect(imported.stdout).toBe("imported 2, skipped 0 (ids already there), failed 0\n");
      expect(imported.code).toBe(0);
      const again = await there(["import", "-"], { stdin: `${readFileSync(file, "utf8")}{"broken":\n` });
      expect(again.stdout).toBe("imported 0, skipped 2 (ids already there), failed 1\n");
      expect(again.stderr).toBe("line 3: not JSON\n");
      expect(again.code).toBe(1);
      for (const line of lines) {
        const { id, body } = JSON.parse(line);
        expect((await there(["hooks", "body", id])).bytes).toEqual(new Uint8Array(Buffer.from(body, "base64")));
      }
    } finally {
      await other.stop();
    }
  });
});
