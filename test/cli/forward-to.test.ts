import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { removeTempDirs, startProcess } from "../helpers/binary";
import { createReceiver } from "../runner/receiver";
import { MAIN, runCli, serveFromSource, waitForOutput } from "./run";

afterAll(removeTempDirs);
setDefaultTimeout(30_000);

const post = async (url: string, channel: string, body: string) =>
  ((await (await fetch(`${url}/?channel=${channel}`, { method: "POST", body, headers: { "content-type": "application/json" } })).json()) as { id: string }).id;

test("serve --forward-to URL forwards every caught hook, of any channel, without a config entry", async () => {
  const app = createReceiver({ status: 503 }, { status: 200 });
  const run = await serveFromSource({}, ["--forward-to", app.url]);
  try {
    expect(run.output()).toContain(`forward:  every channel -> ${app.url}`);
    const id = await post(run.url, "anything", '{"n":1}');
    // The first answer is a 503: the forward handler's retries deliver it.
    await waitForOutput(run, new RegExp(`forward-to ${id} \\(anything\\) attempt 2 succeeded after \\d+ ms: HTTP 200`));
    expect(app.received).toHaveLength(2);
    expect(new TextDecoder().decode(app.received[1]!.body)).toBe('{"n":1}');
    expect(app.received[1]!.method).toBe("POST");
  } finally {
    await run.stop();
    app.stop();
  }
});

test("--channel C forwards only C's hooks; a bad URL or --channel alone is refused at start", async () => {
  const app = createReceiver({ status: 200 });
  const run = await serveFromSource({}, ["--forward-to", app.url, "--channel", "gh"]);
  try {
    await post(run.url, "other", "{}");
    const id = await post(run.url, "gh", '{"gh":true}');
    await waitForOutput(run, new RegExp(`forward-to ${id} \\(gh\\) attempt 1 succeeded`));
    expect(app.received.map((r) => new TextDecoder().decode(r.body))).toEqual(['{"gh":true}']);
  } finally {
    await run.stop();
    app.stop();
  }
  const bad = await runCli(["serve", "--forward-to", "ftp://x", "--port", "0"]);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("  --forward-to: must be an http:// or https:// URL\n");
  const alone = await runCli(["serve", "--channel", "gh"]);
  expect(alone.code).toBe(2);
  expect(alone.stderr).toStartWith("mailroom: --channel is only used with --forward-to URL");
});

test("--forward-to forwards the hooks caught from now on, not the pending ones already in the data file", async () => {
  const first = await serveFromSource();
  const old = await post(first.url, "gh", '{"old":true}');
  await first.stop();
  const app = createReceiver({ status: 200 });
  const again = await startProcess([process.execPath, MAIN, "serve", "--config", join(first.dir, "mailroom.toml"), "--forward-to", app.url], first.dir, {
    NO_COLOR: "",
  });
  try {
    const fresh = await post(again.url, "gh", '{"new":true}');
    await waitForOutput(again, new RegExp(`forward-to ${fresh} \\(gh\\) attempt 1 succeeded`));
    expect(app.received.map((r) => new TextDecoder().decode(r.body))).toEqual(['{"new":true}']);
    // The old hook was never given to forward-to: no attempt, still pending; a retry sends it on purpose.
    const token = (await Bun.file(join(first.dir, "data", "mailroom.credentials.json")).json()).token;
    const auth = { authorization: `Bearer ${token}` };
    expect(await (await fetch(`${again.url}/v1/hooks/${old}/attempts`, { headers: auth })).json()).toEqual([]);
    expect(((await (await fetch(`${again.url}/v1/hooks/${old}`, { headers: auth })).json()) as { status: string }).status).toBe("pending");
  } finally {
    again.proc.kill("SIGTERM");
    await again.proc.exited;
    app.stop();
  }
});
