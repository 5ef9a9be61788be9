/** `mailroom notifiers ls|test` against a running Mailroom (from source) with two notifiers, one of them failing. */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { removeTempDirs } from "../helpers/binary";
import { runCli, serveFromSource } from "../cli/run";

afterAll(removeTempDirs);
setDefaultTimeout(60_000);

describe("mailroom notifiers", () => {
  test("ls says where each sends without secrets; test sends one or says why not, with the status", async () => {
    const got: string[] = [];
    const receiver = Bun.serve({
      port: 0,
      async fetch(req) {
        if (new URL(req.url).pathname.startsWith("/down")) return new Response("no", { status: 503 });
        got.push(await req.text());
        return new Response("ok");
      },
    });
    const base = `http://127.0.0.1:${receiver.port}`;
    const served = await serveFromSource({
      notifiers: [
        { name: "ops", kind: "discord", url: `${base}/api/webhooks/1/tok3n-secret` },
        { name: "down", kind: "teams", url: `${base}/down/tok3n-other` },
      ],
    });
    const cli = (args: string[]) => runCli(args, { cwd: served.dir });
    try {
      const ls = await cli(["notifiers", "ls"]);
      expect(ls.stdout).toBe(`ops  discord  ${base}/…  sent 0, failed 0, queued 0\ndown  teams    ${base}/…  sent 0, failed 0, queued 0\n`);
      let ran = await cli(["notifiers", "test", "ops"]);
      expect([ran.code, ran.stdout]).toEqual([0, "ops: test notice sent\n"]);
      expect(JSON.parse(got[0]!).content).toContain('A test from Mailroom\'s notifier "ops"');
      ran = await cli(["notifiers", "test", "down"]);
      expect([ran.code, ran.stderr]).toEqual([1, "down: not sent: HTTP 503\n"]);
      expect((await cli(["notifiers", "ls"])).stdout).toContain("last error");
      const json = await cli(["notifiers", "ls", "--json"]);
      expect(json.stdout).not.toContain("tok3n");
      expect(JSON.parse(json.stdout).map((n: { name: string }) => n.name)).toEqual(["ops", "down"]);
      ran = await cli(["notifiers", "test", "nope"]);
      expect(ran.code).not.toBe(0);
      expect(ran.stderr).toContain('notifier "nope" not found');
      expect((await cli(["notifiers", "send"])).code).toBe(2);
      expect((await cli(["notifiers", "test"])).stderr).toContain("notifier name");
    } finally {
      await served.stop();
      receiver.stop(true);
    }
  });
});
