/** `mailroom handlers ls|pause|resume` against a running Mailroom (from source), and a restart keeping the pause. */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { removeTempDirs, startProcess } from "../helpers/binary";
import { MAIN, runCli, serveFromSource } from "../cli/run";
import { createReceiver } from "../runner/receiver";

afterAll(removeTempDirs);
setDefaultTimeout(60_000);

describe("mailroom handlers", () => {
  test("pause holds a handler's hooks (across a restart), ls shows it, resume delivers them", async () => {
    const target = createReceiver();
    afterAll(() => target.stop());
    const config = { handlers: [{ name: "app", kind: "forward", url: target.url, rate: "20/s" }], channels: [{ name: "c", handlers: ["app"] }] };
    const served = await serveFromSource(config);
    const cli = (args: string[]) => runCli(args, { cwd: served.dir });

    let ran = await cli(["handlers", "pause", "app"]);
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe("app  paused  0 waiting\n");
    const sent = await cli(["send", "c", "--data", '{"n":1}']);
    expect(sent.code).toBe(0);
    ran = await cli(["handlers", "ls"]);
    expect(ran.stdout).toBe("app  forward  paused             1 waiting  rate 20/s  channels c\n");
    expect((await cli(["handlers", "ls", "--json"])).stdout).toContain('"state": "paused"');

    // Stopped and started again on the same data file: still paused.
    await served.stop();
    const again = await startProcess([process.execPath, MAIN, "serve", "--config", join(served.dir, "mailroom.toml")], served.dir, { NO_COLOR: "" });
    try {
      // The credentials file names the new port.
      expect(JSON.parse(readFileSync(join(served.dir, "data", "mailroom.credentials.json"), "utf8")).url).toBe(again.url);
      ran = await cli(["handlers", "ls"]);
      expect(ran.stdout).toStartWith("app  forward  paused             1 waiting");
      expect(target.received).toHaveLength(0);
      ran = await cli(["handlers", "resume", "app"]);
      expect(ran.code).toBe(0);
      expect(ran.stdout).toMatch(/^app {2}active {2}\d waiting\n$/);
      await target.arrived(1);
      expect(JSON.parse(new TextDecoder().decode(target.received[0]!.body))).toEqual({ n: 1 });
    } finally {
      again.proc.kill("SIGTERM");
      await again.proc.exited;
    }
  });

  test("usage: a missing name, an unknown subcommand, an unknown handler", async () => {
    const served = await serveFromSource({});
    try {
      const cli = (args: string[]) => runCli(args, { cwd: served.dir });
      let ran = await cli(["handlers", "pause"]);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain("missing handler name (mailroom handlers pause NAME)");
      ran = await cli(["handlers", "pasue", "x"]);
      expect(ran.stderr).toContain("unknown handlers subcommand: pasue (did you mean pause?)");
      ran = await cli(["handlers", "resume", "nope"]);
      expect(ran.code).toBe(1);
      expect(ran.stderr).toContain('404: handler "nope" not found');
    } finally {
      await served.stop();
    }
  });
});
