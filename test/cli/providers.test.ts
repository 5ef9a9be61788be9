import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { verify as verifyGithub } from "@octokit/webhooks-methods";
import { verifyKey } from "discord-interactions";
import twilio from "twilio";
import { PRESETS } from "../../src/hooks/guards/providers";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { createReceiver } from "../runner/receiver";
import { runCli } from "./run";

afterAll(removeTempDirs);
setDefaultTimeout(30_000);

/** Runs `mailroom send ... --url RECEIVER` and returns what the receiver got. */
async function sent(args: string[]) {
  const app = createReceiver({ status: 200 });
  try {
    const ran = await runCli(["send", "ch", "--url", app.url.replace(/\/hook$/, ""), ...args]);
    expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: "" });
    return app.received[0]!;
  } finally {
    app.stop();
  }
}

describe("mailroom send --sign PROVIDER", () => {
  test("headers the user gives win over the signer's, and the signature covers what was sent", async () => {
    const body = '{"ref":"refs/heads/main"}';
    const got = await sent(["--sign", "github", "--secret", "s", "--data", body, "--header", "X-GitHub-Event: push"]);
    expect(got.headers["x-github-event"]).toBe("push");
    expect(await verifyGithub("s", body, got.headers["x-hub-signature-256"]!)).toBe(true);
    // A signed header the user chose is signed as given (Standard Webhooks' webhook-id).
    const secret = `whsec_${Buffer.from("0123456789abcdef").toString("base64")}`;
    const sw = await sent(["--sign", "standard-webhooks", "--secret", secret, "--data", body, "--header", "webhook-id: msg_mine"]);
    expect(sw.headers["webhook-id"]).toBe("msg_mine");
  });

  test("a provider that signs the URL and form (Twilio): twilio's validateRequest accepts the request as sent", async () => {
    const app = createReceiver({ status: 200 });
    try {
      const base = app.url.replace(/\/hook$/, "");
      const form = "Body=hi&From=%2B15551234567";
      const ran = await runCli([
        "send",
        "ch",
        "--url",
        base,
        "--sign",
        "twilio",
        "--secret",
        "tok",
        "--data",
        form,
        "--header",
        "content-type: application/x-www-form-urlencoded",
      ]);
      expect(ran.code).toBe(0);
      const got = app.received[0]!;
      // The receiver's URL as the sender saw it.
      const url = `${base}/?channel=ch`;
      expect(twilio.validateRequest("tok", got.headers["x-twilio-signature"]!, url, Object.fromEntries(new URLSearchParams(form)))).toBe(true);
    } finally {
      app.stop();
    }
  });

  test("a provider that signs with a key pair (Discord): --private-key @FILE; discord-interactions verifies it", async () => {
    const pair = generateKeyPairSync("ed25519");
    const dir = tempDir("mr-key-");
    const file = join(dir, "discord.pem");
    writeFileSync(file, pair.privateKey.export({ format: "pem", type: "pkcs8" }));
    const body = '{"type":1}';
    const got = await sent(["--sign", "discord", "--private-key", `@${file}`, "--data", body]);
    const publicHex = pair.publicKey.export({ format: "der", type: "spki" }).subarray(12).toString("hex");
    expect(await verifyKey(body, got.headers["x-signature-ed25519"]!, got.headers["x-signature-timestamp"]!, publicHex)).toBe(true);
  });

  test("an unknown provider, or a missing key, is a usage error", async () => {
    const unknown = await runCli(["send", "c", "--sign", "nope", "--secret", "s"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toStartWith("mailroom: --sign: unknown provider nope");
    const close = await runCli(["send", "c", "--sign", "githb", "--secret", "s"]);
    expect([close.code, close.stderr]).toEqual([2, expect.stringContaining("--sign: unknown provider githb (did you mean github?)")]);
    const keyless = await runCli(["send", "c", "--sign", "discord"]);
    expect(keyless.stderr).toStartWith("mailroom: --sign discord needs --secret S");
  });
});

describe("mailroom providers", () => {
  test("lists every named provider with its scheme, one line each; one provider in full; --json", async () => {
    const list = await runCli(["providers"]);
    expect(list.code).toBe(0);
    const lines = list.stdout.split("\n").filter((l) => /^[a-z0-9-]+ {2}/.test(l));
    const kinds = [...PRESETS.keys(), "aws-sns", "paypal"].sort((a, b) => a.localeCompare(b));
    expect(lines.map((l) => l.split(" ")[0])).toEqual(kinds);
    expect(list.stdout).toMatch(/^stripe +HMAC-SHA256 of `\{timestamp\}\.\{body\}`, hex in `Stripe-Signature` as `t=\.\.\.,v1=\.\.\.` \(several allowed\)/m);
    const one = await runCli(["providers", "discord"]);
    expect(one.stdout).toContain('config:    [[guards]] name = "discord", kind = "discord", public_key_env = "DISCORD_PUBLIC_KEY"');
    expect(one.stdout).toContain("handshake: PING (type 1): answers PONG; bad signature 401");
    const json = JSON.parse((await runCli(["providers", "--json"])).stdout);
    expect(json).toHaveLength(PRESETS.size + 2);
    const sns = (await runCli(["providers", "aws-sns"])).stdout;
    expect(sns).toContain("handshake: `SubscriptionConfirmation` (with `confirm_subscription = true`)");
    expect(sns).toContain("SignatureVersion 1 SHA1withRSA, 2 SHA256withRSA");
    expect(json.find((p: { kind: string }) => p.kind === "meta").config).toContain('verify_token = "..."');
  });

  test("a mistyped provider is answered with the close one", async () => {
    const close = await runCli(["providers", "stirpe"]);
    expect([close.code, close.stderr]).toEqual([2, expect.stringContaining("providers: unknown provider stirpe (did you mean stripe?)")]);
    const far = await runCli(["providers", "zzzzzz"]);
    expect(far.stderr).toContain("providers: unknown provider zzzzzz; mailroom providers lists them");
  });
});

describe("mailroom trigger", async () => {
  const { serveFromSource } = await import("./run");
  const served = await serveFromSource({
    guards: [
      { name: "gh", kind: "github", secret: "gh-secret" },
      { name: "st", kind: "stripe", secret: "whsec_trigger" },
    ],
    channels: [
      { name: "github", guards: ["gh"] },
      { name: "payments", guards: ["st"] },
    ],
  });
  afterAll(() => served.stop());
  const cli = (args: string[]) => runCli(args, { cwd: served.dir });

  test("sends a signed sample the guard accepts; the hook carries its event type; overrides apply", async () => {
    const gh = await cli(["trigger", "github", "issues.opened", "--secret", "gh-secret"]);
    expect(gh.stdout).toMatch(/^200 \{"id":"[0-9a-z]{26}"\}/);
    const st = await cli(["trigger", "stripe", "invoice.paid", "payments", "--secret", "whsec_trigger", "--override", "data.object.amount_paid=4242"]);
    expect(st.code).toBe(0);
    const ls = JSON.parse((await cli(["hooks", "ls", "--channel", "payments", "--json"])).stdout);
    const hook = ls[0];
    expect(hook.event_type).toBe("invoice.paid");
    expect(JSON.parse(Buffer.from(hook.body, "base64").toString()).data.object.amount_paid).toBe(4242);
    const wrong = await cli(["trigger", "github", "push", "--secret", "not-it"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toStartWith("401 ");
  });

  test("--list prints the providers and their events; an unknown event is a usage error", async () => {
    const list = await cli(["trigger", "--list"]);
    expect(list.stdout).toContain("github\n");
    expect(list.stdout).toContain("  pull_request.opened\n");
    expect(list.stdout).toContain("stripe\n  charge.refunded\n");
    const bad = await cli(["trigger", "stripe", "nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toStartWith("mailroom: trigger: stripe has no event nope");
    // Close names are suggested: providers and events, with --list too.
    const event = await cli(["trigger", "stripe", "invoice.piad"]);
    expect([event.code, event.stderr]).toEqual([2, expect.stringContaining("trigger: stripe has no event invoice.piad (did you mean invoice.paid?)")]);
    const provider = await cli(["trigger", "stirpe", "invoice.paid"]);
    expect([provider.code, provider.stderr]).toEqual([2, expect.stringContaining("trigger: unknown provider stirpe (did you mean stripe?)")]);
    const listed = await cli(["trigger", "--list", "githb"]);
    expect([listed.code, listed.stderr]).toEqual([2, expect.stringContaining("trigger: unknown provider githb (did you mean github?)")]);
  });
});
