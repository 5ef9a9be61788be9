import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import Stripe from "stripe";
import { removeTempDirs } from "../helpers/binary";
import { runCli, serveFromSource, waitForOutput } from "../cli/run";
import { createReceiver } from "../runner/receiver";

/**
 * Issue 30 from the command line: `serve --forward-to URL --resign KIND --secret S --chaos ...`
 * and `replay ID --to URL --resign KIND --secret S` send what the provider's library accepts
 * although the caught signature is an hour old; bad flags are refused saying which.
 */
afterAll(removeTempDirs);
setDefaultTimeout(30_000);

const stripe = new Stripe("sk_test_unused");
const SECRET = "whsec_local_cli_secret";
const BODY = '{"id":"evt_cli","type":"invoice.paid"}';
const hourOld = () => stripe.webhooks.generateTestHeaderStringAsync({ payload: BODY, secret: SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
const verify = (body: Uint8Array, header: string) => stripe.webhooks.constructEventAsync(new TextDecoder().decode(body), header, SECRET);
const post = async (url: string, headers: Record<string, string>) =>
  (
    (await (await fetch(`${url}/?channel=pay`, { method: "POST", body: BODY, headers: { "content-type": "application/json", ...headers } })).json()) as {
      id: string;
    }
  ).id;

test("serve --forward-to --resign stripe --secret S --chaos duplicate=1: the app gets a verifiable delivery, twice", async () => {
  const app = createReceiver({ status: 200 });
  // Only what a guard verified is re-signed: the channel checks a token.
  const guarded = { guards: [{ name: "tok", kind: "token", secret: "catch-token", header: "x-catch-token" }], channels: [{ name: "pay", guards: ["tok"] }] };
  const run = await serveFromSource(guarded, ["--forward-to", app.url, "--resign", "stripe", "--secret", SECRET, "--chaos", "duplicate=1,seed=4"]);
  try {
    const stale = await hourOld();
    await expect(verify(new TextEncoder().encode(BODY), stale)).rejects.toThrow(/tolerance/i);
    const id = await post(run.url, { "stripe-signature": stale, "x-catch-token": "catch-token" });
    await waitForOutput(run, new RegExp(`forward-to ${id} \\(pay\\) attempt 1 succeeded`));
    await app.arrived(2);
    expect(app.received).toHaveLength(2);
    for (const got of app.received) expect((await verify(got.body, got.headers["stripe-signature"]!)).id).toBe("evt_cli");
    const token = (await Bun.file(join(run.dir, "data", "mailroom.credentials.json")).json()).token;
    const attempts = await (await fetch(`${run.url}/v1/hooks/${id}/attempts`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(attempts).toMatchObject([{ outcome: "succeeded", resigned: "stripe", chaos: "duplicate" }]);
    expect(JSON.stringify(attempts)).not.toContain(SECRET);
  } finally {
    await run.stop();
    app.stop();
  }
});

test("replay --resign stripe --secret S sends a fresh signature instead of the stale one, and does not warn", async () => {
  const app = createReceiver({ status: 200 });
  const run = await serveFromSource();
  try {
    const id = await post(run.url, { "stripe-signature": await hourOld() });
    const replayed = await runCli(["replay", id, "--to", app.url, "--resign", "stripe", "--secret", SECRET], { cwd: run.dir });
    expect(replayed.stderr).toBe("");
    expect(replayed.code).toBe(0);
    const got = app.received[0]!;
    expect(got.headers["stripe-signature"]!.match(/t=/g)).toHaveLength(1);
    expect((await verify(got.body, got.headers["stripe-signature"]!)).id).toBe("evt_cli");
    const refused = await runCli(["replay", id, "--to", app.url, "--resign", "linear", "--secret", "s"], { cwd: run.dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--resign: linear carries its timestamp in the body");
  } finally {
    await run.stop();
    app.stop();
  }
});

test("bad --resign, --secret and --chaos flags are refused before anything starts", async () => {
  const chaos = await runCli(["serve", "--forward-to", "http://127.0.0.1:9/", "--chaos", "duplicate"]);
  expect(chaos.code).toBe(2);
  expect(chaos.stderr).toContain("--chaos: expected NAME=VALUE pairs separated by commas, got duplicate");
  const alone = await runCli(["serve", "--resign", "stripe", "--secret", "s"]);
  expect(alone.code).toBe(2);
  expect(alone.stderr).toContain("--resign is only used with --forward-to URL");
  const noSecret = await runCli(["serve", "--forward-to", "http://127.0.0.1:9/", "--resign", "stripe"]);
  expect(noSecret.stderr).toContain("--resign stripe needs --secret S");
  const unknown = await runCli(["serve", "--forward-to", "http://127.0.0.1:9/", "--resign", "strpe", "--secret", "s", "--port", "0"]);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain("--resign.kind: unknown provider strpe (did you mean stripe?)");
  const share = await runCli(["serve", "--forward-to", "http://127.0.0.1:9/", "--chaos", "duplicate=2", "--port", "0"]);
  expect(share.code).toBe(1);
  expect(share.stderr).toContain("--chaos.duplicate:");
});

test("listen --forward-to takes --resign, --secret and --chaos as serve does", async () => {
  const { parseArgs } = await import("../../src/cli");
  const listen = parseArgs([
    "listen",
    "http://127.0.0.1:8080",
    "--channel",
    "pay",
    "--token",
    "mr_token",
    "--forward-to",
    "http://127.0.0.1:3000/hooks",
    "--resign",
    "stripe",
    "--secret",
    SECRET,
    "--chaos",
    "duplicate=0.2,reorder=2s,seed=42",
  ]);
  expect(listen).toMatchObject({
    kind: "listen",
    forwardTo: {
      url: "http://127.0.0.1:3000/hooks",
      channel: "pay",
      resign: { kind: "stripe", secret: SECRET },
      chaos: { duplicate: 0.2, reorder: "2s", seed: 42 },
    },
  });
});
