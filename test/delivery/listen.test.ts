import { afterAll, afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "smol-toml";
import Stripe from "stripe";
import { buildBinary, removeTempDirs, startProcess, tempDir, type Running } from "../helpers/binary";
import { eventually } from "../helpers/instances";
import { killAll, RELAY_TOKEN, startApp, startUpstream } from "../relay/support";

/**
 * `mailroom listen URL --channel C --token T --forward-to APP --resign stripe --secret S --chaos ...`
 * as a user runs it: the laptop relays upstream's hooks and forwards them re-signed and duplicated.
 */
setDefaultTimeout(120_000);
const mine: Running[] = [];
afterEach(async () => {
  await Promise.all(mine.splice(0).map((r) => (r.proc.kill("SIGKILL"), r.proc.exited)));
  await killAll();
});
afterAll(removeTempDirs);

test("listen --forward-to with --resign and --chaos: the app gets every relayed hook twice, each verifiable by Stripe's library", async () => {
  const secret = "whsec_listen_local";
  const stripe = new Stripe("sk_test_unused");
  // Only a hook a guard authenticated is re-signed: upstream's channel is guarded, and the relay carries the fact.
  const up = await startUpstream({
    guards: [{ name: "tok", kind: "token", secret: "catch-token", header: "x-catch-token" }],
    channels: [{ name: "stripe", guards: ["tok"] }],
  });
  const app = startApp();
  const dir = tempDir("mailroom-laptop-");
  writeFileSync(
    join(dir, "mailroom.toml"),
    stringify({ server: { host: "127.0.0.1", port: 0 }, storage: { path: join(dir, "data", "laptop.db"), durability: "normal" } }),
  );
  const argv = ["listen", up.publicUrl, "--channel", "stripe", "--token", RELAY_TOKEN, "--forward-to", app.url, "--config", join(dir, "mailroom.toml")];
  const lap = await startProcess([await buildBinary(), ...argv, "--resign", "stripe", "--secret", secret, "--chaos", "duplicate=1,seed=3"], dir, {
    MAILROOM_DATABASE_URL: "",
  });
  mine.push(lap);
  await eventually(async () => lap.output().includes("relay: caught up"), 10_000, "caught up");
  const body = '{"id":"evt_listen","type":"charge.succeeded"}';
  const stale = await stripe.webhooks.generateTestHeaderStringAsync({ payload: body, secret, timestamp: Math.floor(Date.now() / 1000) - 3600 });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await up.send(body, { "content-type": "application/json", "stripe-signature": stale, "x-catch-token": "catch-token" });
    ids.push(((await res.json()) as { id: string }).id);
  }
  await eventually(async () => app.received.length >= 6, 10_000, "six deliveries");
  for (const id of ids) expect(app.received.filter((r) => r.id === id)).toHaveLength(2);
  for (const got of app.received) {
    const header = got.headers.get("stripe-signature")!;
    expect(header.match(/t=/g)).toHaveLength(1);
    expect((await stripe.webhooks.constructEventAsync(new TextDecoder().decode(got.body), header, secret)).id).toBe("evt_listen");
  }
});
