/**
 * `mailroom listen` against a real upstream that refuses it for good (a wrong token, a channel its
 * key does not name, a channel upstream does not know): it stops with the reason and status 1
 * instead of retrying for ever. What may pass (unreachable, 5xx, another listener) is retried.
 */
import { afterAll, afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { removeTempDirs } from "../helpers/binary";
import { preflight } from "../../src/relay/preflight";
import { killAll, RELAY_TOKEN, runLaptopToExit, startUpstream } from "./support";

setDefaultTimeout(120_000);
afterEach(killAll);
afterAll(removeTempDirs);

test("a wrong token (401), a channel outside the key (403) and an unknown channel (404) end listen with the reason and status 1", async () => {
  const up = await startUpstream();
  // "github" exists upstream (its first hook made it) but the relay key names only "stripe".
  expect((await up.send("{}", { "content-type": "application/json" }, "POST", "channel=github")).status).toBe(200);
  const cases = [
    { channel: "stripe", token: "not-the-relay-token-0123", says: /401 invalid bearer token \(wrong token\?\)/ },
    { channel: "github", token: RELAY_TOKEN, says: /403 API key "laptop" may not relay channel "github" \(its channels: stripe\)/ },
    { channel: "nope", token: RELAY_TOKEN, says: /404 unknown channel "nope" upstream/ },
  ];
  const runs = await Promise.all(cases.map((c) => runLaptopToExit(up.publicUrl, c)));
  runs.forEach((run, i) => {
    const { channel, says } = cases[i]!;
    expect([channel, run.killed, run.code]).toEqual([channel, false, 1]);
    const last = run.stderr.trim().split("\n").at(-1)!;
    expect(last).toStartWith(`mailroom listen: upstream ${up.publicUrl} refuses channel ${channel}: `);
    expect(last).toMatch(says);
    expect(last).toEndWith("; not retrying");
    expect(run.stderr + run.stdout).not.toContain("retrying in");
  });
});

test("the preflight tells a refusal no retry changes (301, 400, 401, 403, 404, 405) from one that may pass (5xx, 409, 429, unreachable)", async () => {
  let status = 200;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () =>
      status === 301
        ? Response.redirect("https://hooks.example.com/relay/v1/channels/stripe", 301)
        : Response.json({ message: `status ${status}` }, { status }),
  });
  try {
    const ask = async (s: number) => ((status = s), await preflight(`http://127.0.0.1:${server.port}/relay/v1/channels/stripe`, {}));
    expect(await ask(200)).toBeUndefined();
    for (const s of [400, 401, 403, 404, 405]) expect(await ask(s)).toEqual({ message: `${s} status ${s}`, permanent: true });
    for (const s of [409, 429, 500, 502, 503]) expect(await ask(s)).toEqual({ message: `${s} status ${s}`, permanent: false });
    expect(await ask(301)).toEqual({ message: "301 redirected to https://hooks.example.com/relay/v1/channels/stripe: give that URL", permanent: true });
  } finally {
    await server.stop(true);
  }
  expect(await preflight(`http://127.0.0.1:${server.port}/relay/v1/channels/stripe`, {})).toMatchObject({
    permanent: false,
    message: expect.stringMatching(/^unreachable/),
  });
});
