import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { verify as verifyGithub } from "@octokit/webhooks-methods";
import Stripe from "stripe";
import { Webhook } from "standardwebhooks";
import { createHmac } from "node:crypto";
import { removeTempDirs } from "../helpers/binary";
import { createReceiver } from "../runner/receiver";
import { runCli, serveFromSource, type Served } from "./run";

afterAll(removeTempDirs);
// Each command is a process of its own (about half a second from source on a busy machine).
setDefaultTimeout(30_000);

const GITHUB_SECRET = "gh-secret-for-tests";
let served: Served;
const cli = (args: string[], opts: Parameters<typeof runCli>[1] = {}) => runCli(args, { cwd: served.dir, ...opts });

describe("the CLI against a running Mailroom, with the credentials serve wrote", async () => {
  served = await serveFromSource({
    guards: [{ name: "gh", kind: "github", secret: GITHUB_SECRET }],
    channels: [{ name: "github", guards: ["gh"] }],
  });
  afterAll(() => served.stop());
  const credentials = join(served.dir, "data", "mailroom.credentials.json");

  test("serve writes the URL and the generated token next to the data file, readable by its owner only", async () => {
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    const saved = await Bun.file(credentials).json();
    expect(saved.url).toBe(served.url);
    expect(saved.token).toMatch(/^mr_/);
    const res = await fetch(`${served.url}/v1/channels`, { headers: { authorization: `Bearer ${saved.token}` } });
    expect(res.status).toBe(200);
  });

  test("send --sign github is accepted by a github guard; hooks ls lists it", async () => {
    const sent = await cli(["send", "github", "--sign", "github", "--secret", GITHUB_SECRET, "--data", '{"zen":"Keep it simple."}']);
    expect(sent.stderr).toBe("");
    expect(sent.code).toBe(0);
    const id = /"id":"(\w+)"/.exec(sent.stdout)![1]!;
    expect(sent.stdout).toStartWith("200 ");
    const ls = await cli(["hooks", "ls", "--channel", "github"]);
    expect(ls.code).toBe(0);
    // A channel that does not exist is not an empty list.
    const misspelt = await cli(["hooks", "ls", "--channel", "githbu"]);
    expect(misspelt.code).toBe(1);
    expect(misspelt.stderr).toStartWith('mailroom: no channel named "githbu" (did you mean github?); channels: ');
    // The event type is the last field (an extension the command asks for); the id stays the first,
    // so `mailroom hooks ls --limit 1 | cut -d' ' -f1` prints it.
    expect(ls.stdout).toMatch(new RegExp(`^${id}  \\S+  github  pending +POST +25 B  application/json  ping$`, "m"));
    expect(ls.stdout.split("\n")[0]!.split(" ")[0]).toBe(id);
    const show = await cli(["hooks", "show", id]);
    expect(show.stdout.split("\n")[0]).toBe(`${id}  pending  channel github  event ping`);
    const wrong = await cli(["send", "github", "--sign", "github", "--secret", "not-the-secret"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toStartWith("401 ");
  });

  test("hooks ls -q searches with the query language; a query that does not parse prints where and exits 1", async () => {
    const sent = await cli(["send", "github", "--sign", "github", "--secret", GITHUB_SECRET, "--data", '{"zen":"grammar-check"}']);
    const id = /"id":"(\w+)"/.exec(sent.stdout)![1]!;
    const found = await cli(["hooks", "ls", "-q", "(grammar-check OR nothing-such) -status:failed larger:10B"]);
    expect(found.code).toBe(0);
    expect(
      found.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(" ")[0]),
    ).toEqual([id]);
    const none = await cli(["hooks", "ls", "-q", "grammar-check NOT zen"]);
    expect(none.stdout).toBe("");
    const bad = await cli(["hooks", "ls", "-q", "(grammar-check OR"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("invalid query: q: at character 18: expected a term, found the end of the query");
  });

  test("hooks show prints headers and the body decoded for reading; hooks body the exact bytes", async () => {
    const json = await cli(["send", "plain", "--data", '{"a":[1,2]}']);
    const jsonId = /"id":"(\w+)"/.exec(json.stdout)![1]!;
    const shown = await cli(["hooks", "show", jsonId]);
    expect(shown.stdout).toContain("content-type: application/json\n");
    expect(shown.stdout).toContain('body: 11 bytes, shown as json\n{\n  "a": [\n    1,\n    2\n  ]\n}');

    const text = await cli(["send", "plain", "--data", "-", "--header", "content-type: text/plain"], { stdin: "line one\nline two" });
    const textId = /"id":"(\w+)"/.exec(text.stdout)![1]!;
    expect((await cli(["hooks", "show", textId])).stdout).toContain("shown as text\nline one\nline two");

    const binary = new Uint8Array([0, 1, 2, 0xff, 0x41, 0x42, 10, 0x80]);
    const bin = await cli(["send", "plain", "--data", "-", "--header", "content-type: application/octet-stream"], { stdin: binary });
    const binId = /"id":"(\w+)"/.exec(bin.stdout)![1]!;
    expect((await cli(["hooks", "show", binId])).stdout).toContain("shown as binary\n00000000  00 01 02 ff 41 42 0a 80");
    const body = await cli(["hooks", "body", binId]);
    expect([...body.bytes]).toEqual([...binary]);
  });

  test("hooks process / delete act through the API; a wrong token says 401", async () => {
    const sent = await cli(["send", "plain"]);
    const id = /"id":"(\w+)"/.exec(sent.stdout)![1]!;
    expect((await cli(["hooks", "process", id])).stdout).toBe(`${id}  handled\n`);
    expect((await cli(["hooks", "delete", id])).stdout).toBe(`${id}  deleted\n`);
    const gone = await cli(["hooks", "show", id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("404");
    const bad = await cli(["hooks", "ls", "--token", "mr_wrong"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("401: invalid bearer token");
    const viaEnv = await runCli(["hooks", "ls"], { env: { MAILROOM_URL: served.url, MAILROOM_TOKEN: "mr_wrong" } });
    expect(viaEnv.stderr).toContain("401");
  });

  test("replay sends the method, headers and exact body to any URL, and warns of a stale timestamped signature", async () => {
    const app = createReceiver({ status: 204 });
    try {
      const old = Math.floor(Date.now() / 1000) - 3600;
      const sent = await cli([
        "send",
        "plain",
        "--method",
        "PUT",
        "--data",
        "x=1&y=2",
        "--header",
        "content-type: application/x-www-form-urlencoded",
        "--header",
        `stripe-signature: t=${old},v1=abc`,
        "--header",
        "x-custom: kept",
      ]);
      const id = /"id":"(\w+)"/.exec(sent.stdout)![1]!;
      const replayed = await cli(["replay", id, "--to", app.url]);
      expect(replayed.code).toBe(0);
      expect(replayed.stdout).toBe(`PUT ${app.url} -> 204\n`);
      expect(replayed.stderr).toMatch(/stripe-signature.*is \d+ s old/);
      const got = app.received[0]!;
      expect(got.method).toBe("PUT");
      expect(new TextDecoder().decode(got.body)).toBe("x=1&y=2");
      expect(got.headers["x-custom"]).toBe("kept");
      expect(got.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    } finally {
      app.stop();
    }
  });
});

describe("send --sign, checked with the providers' own libraries", () => {
  const body = '{"id":"evt_1","type":"ping"}';
  async function sendTo(provider: string, secret: string) {
    const app = createReceiver({ status: 200 });
    try {
      const ran = await runCli(["send", "ch", "--url", app.url.replace(/\/hook$/, ""), "--sign", provider, "--secret", secret, "--data", body]);
      expect(ran.code).toBe(0);
      const got = app.received[0]!;
      expect(new TextDecoder().decode(got.body)).toBe(body);
      return got.headers;
    } finally {
      app.stop();
    }
  }

  test("github: @octokit/webhooks-methods verifies X-Hub-Signature-256", async () => {
    const h = await sendTo("github", "It's a Secret to Everybody");
    expect(await verifyGithub("It's a Secret to Everybody", body, h["x-hub-signature-256"]!)).toBe(true);
  });
  test("stripe: stripe.webhooks.constructEvent accepts Stripe-Signature", async () => {
    const secret = "whsec_test_secret";
    const h = await sendTo("stripe", secret);
    const event = await new Stripe("sk_test_unused").webhooks.constructEventAsync(body, h["stripe-signature"]!, secret);
    expect(event.id).toBe("evt_1");
  });
  test("standard-webhooks: Webhook.verify accepts webhook-id, -timestamp and -signature", async () => {
    const secret = "whsec_" + Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");
    const h = await sendTo("standard-webhooks", secret);
    expect(
      new Webhook(secret).verify(body, {
        "webhook-id": h["webhook-id"]!,
        "webhook-timestamp": h["webhook-timestamp"]!,
        "webhook-signature": h["webhook-signature"]!,
      }),
    ).toEqual(JSON.parse(body));
  });
  test("shopify and slack: the HMACs their documentation describes", async () => {
    const shopify = await sendTo("shopify", "shpss_x");
    expect(shopify["x-shopify-hmac-sha256"]).toBe(createHmac("sha256", "shpss_x").update(body).digest("base64"));
    const slack = await sendTo("slack", "slack-signing");
    const ts = slack["x-slack-request-timestamp"]!;
    expect(slack["x-slack-signature"]).toBe("v0=" + createHmac("sha256", "slack-signing").update(`v0:${ts}:${body}`).digest("hex"));
  });
});

describe("usage errors", () => {
  test("an unknown flag or subcommand says so in one line and points to the command's --help", async () => {
    const flag = await runCli(["hooks", "ls", "--colour"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe("mailroom: unknown flag --colour\nRun 'mailroom hooks --help' for usage.\n");
    const typo = await runCli(["hooks", "ls", "--chanel", "x"]);
    expect(typo.stderr).toStartWith("mailroom: unknown flag --chanel (did you mean --channel?)\n");
    const sub = await runCli(["hooks", "frobnicate"]);
    expect(sub.stderr).toStartWith("mailroom: unknown hooks subcommand: frobnicate\n");
    expect((await runCli(["hooks", "lss"])).stderr).toStartWith("mailroom: unknown hooks subcommand: lss (did you mean ls?)\n");
    const sign = await runCli(["send", "c", "--sign", "github"]);
    expect(sign.stderr).toStartWith("mailroom: --sign github needs --secret S");
  });
});
