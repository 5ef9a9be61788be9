import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { verify as verifyGithub } from "@octokit/webhooks-methods";
import Stripe from "stripe";
import { Webhook } from "standardwebhooks";
import twilio from "twilio";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { createReceiver } from "../runner/receiver";
import { runCli, serveFromSource, type Served } from "./run";

afterAll(removeTempDirs);
setDefaultTimeout(30_000);

const STRIPE_SECRET = "whsec_fixture_test_secret";
const GITHUB_SECRET = "gh-fixture-secret";
const SW_SECRET = `whsec_${Buffer.from("standard-webhooks-fixture-key!!").toString("base64")}`;
const TWILIO_TOKEN = "twilio-auth-token-fixture";

/** Secrets and personal data a caught hook carries; none may reach a scrubbed fixture file. */
const SECRETS = {
  email: "ada.lovelace@analytical.example.org",
  email2: "grace@navy.example.mil",
  stripeKey: "sk_live_51H8xAbCdEfGhIjKlMnOpQr",
  githubToken: "ghp_0123456789abcdefghijABCDEFGHIJ012345",
  jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
  card: "4242 4242 4242 4242",
  ip: "203.0.113.77",
  ipv6: "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
  phone: "+447700900123",
  password: "correct horse battery staple",
  apiKeyHeader: "key-live-very-secret-abcdef",
  bearer: "Bearer abcdefghijklmnop.qrstuvwx",
};

let served: Served;
let token: string;
let dir: string;
const cli = (args: string[], opts: Parameters<typeof runCli>[1] = {}) =>
  runCli(args, { cwd: dir, ...opts, env: { MAILROOM_URL: served.url, MAILROOM_TOKEN: token, ...opts.env } });
const api = (path: string): Promise<any> => fetch(`${served.url}${path}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
const idOf = (stdout: string) => /"id":"(\w+)"/.exec(stdout)![1]!;
const latest = async (channel: string) => (await api(`/v1/hooks?channel=${channel}&limit=1&include=extensions`))[0];

describe("mailroom fixtures save and trigger --fixture", async () => {
  served = await serveFromSource({
    guards: [
      { name: "st", kind: "stripe", secret: STRIPE_SECRET },
      { name: "gh", kind: "github", secret: GITHUB_SECRET },
    ],
    channels: [
      { name: "stripe", guards: ["st"] },
      { name: "github", guards: ["gh"] },
    ],
    fixtures: { keep: ["body.data.object.customer_name"], scrub: ["body.data.object.account_country"] },
  });
  afterAll(() => served.stop());
  token = (await Bun.file(join(served.dir, "data", "mailroom.credentials.json")).json()).token;
  dir = tempDir("mailroom-fixtures-");

  test("save -> trigger: the same method, headers less signatures, body and event type; Stripe's library accepts the re-signed fixture", async () => {
    const sent = await cli([
      "trigger",
      "stripe",
      "invoice.paid",
      "stripe",
      "--secret",
      STRIPE_SECRET,
      "--header",
      "x-custom: kept",
      "--override",
      "data.object.customer_name=Ada",
    ]);
    expect(sent.code).toBe(0);
    const original = await api(`/v1/hooks/${idOf(sent.stdout)}?include=extensions`);

    const saved = await cli(["fixtures", "save", original.id, "--name", "stripe-invoice-paid", "--no-scrub"]);
    expect(saved.stderr).toContain("not scrubbed");
    expect(saved.code).toBe(0);
    expect(saved.stdout).toBe(`${join("fixtures", "stripe-invoice-paid.json")}\n`);
    const file = JSON.parse(readFileSync(join(dir, "fixtures", "stripe-invoice-paid.json"), "utf8"));
    expect(file).toMatchObject({
      mailroom_fixture: 1,
      provider: "stripe",
      event_type: "invoice.paid",
      channel: "stripe",
      method: "POST",
      body_encoding: "json",
    });

    const again = await cli(["trigger", "--fixture", "fixtures/stripe-invoice-paid", "--secret", STRIPE_SECRET]);
    expect(again.stdout).toStartWith("200 ");
    expect(again.code).toBe(0);
    const copy = await api(`/v1/hooks/${idOf(again.stdout)}?include=extensions`);
    expect(copy.method).toBe(original.method);
    expect(copy.event_type).toBe("invoice.paid");
    const less = (h: Record<string, string>) => {
      const { "stripe-signature": _s, "content-length": _l, host: _h, "user-agent": _u, ...rest } = h;
      return rest;
    };
    expect(less(copy.headers)).toEqual(less(original.headers));
    // The same body, but for the event's fresh id and time.
    expect(copy.payload.id).not.toBe(original.payload.id);
    expect(copy.payload.id).toMatch(/^evt_\w{24}$/);
    expect(copy.payload.created).toBeGreaterThanOrEqual(original.payload.created);
    expect(copy.payload.request.idempotency_key).not.toBe(original.payload.request.idempotency_key);
    const same = (p: Record<string, unknown>) => ({ ...p, id: 0, created: 0, request: 0 });
    expect(same(copy.payload)).toEqual(same(original.payload));

    const receiver = createReceiver();
    try {
      const to = await cli(["trigger", "--fixture", "fixtures/stripe-invoice-paid.json", "--to", receiver.url, "--secret", STRIPE_SECRET]);
      expect(to.code).toBe(0);
      const got = receiver.received[0]!;
      const event = await new Stripe("sk_test_unused").webhooks.constructEventAsync(
        new TextDecoder().decode(got.body),
        got.headers["stripe-signature"]!,
        STRIPE_SECRET,
      );
      expect(event.type as string).toBe("invoice.paid");
    } finally {
      receiver.stop();
    }
  });

  test("GitHub, Standard Webhooks and Twilio fixtures are accepted by the providers' own libraries", async () => {
    const receiver = createReceiver();
    try {
      const gh = await cli(["trigger", "github", "issues.opened", "github", "--secret", GITHUB_SECRET]);
      expect(gh.code).toBe(0);
      const ghSaved = await cli(["fixtures", "save", idOf(gh.stdout)]);
      expect(ghSaved.stdout).toBe(`${join("fixtures", "github-issues-opened.json")}\n`);
      const sentGh = await cli(["trigger", "--fixture", "fixtures/github-issues-opened.json", "--to", receiver.url, "--secret", GITHUB_SECRET]);
      expect(sentGh.code).toBe(0);
      const got = receiver.received.at(-1)!;
      expect(await verifyGithub(GITHUB_SECRET, new TextDecoder().decode(got.body), got.headers["x-hub-signature-256"]!)).toBe(true);
      expect(got.headers["x-github-event"]).toBe("issues");

      // Standard Webhooks and Twilio: caught unsigned on a channel without guards, signed at send time.
      const swBody = JSON.stringify({ type: "user.created", timestamp: "2026-01-01T00:00:00.000Z", data: { id: "user_1", email: SECRETS.email } });
      const sw = await fetch(`${served.url}/?channel=sw`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "webhook-id": "msg_2abcdefghijklmnopqrstuvwxyz",
          "webhook-timestamp": "1767225600",
          "webhook-signature": "v1,AAAA",
        },
        body: swBody,
      });
      const swId = ((await sw.json()) as { id: string }).id;
      expect((await cli(["fixtures", "save", swId, "--name", "sw"])).code).toBe(0);
      const sentSw = await cli(["trigger", "--fixture", "fixtures/sw", "--to", receiver.url, "--secret", SW_SECRET]);
      expect(sentSw.code).toBe(0);
      const swGot = receiver.received.at(-1)!;
      expect(swGot.headers["webhook-id"]).not.toBe("msg_2abcdefghijklmnopqrstuvwxyz");
      const verified = new Webhook(SW_SECRET).verify(new TextDecoder().decode(swGot.body), swGot.headers) as { type: string; data: { email: string } };
      expect(verified.type).toBe("user.created");
      expect(verified.data.email).toBe("email-1@example.com");

      const form = new URLSearchParams({
        AccountSid: `AC${"a".repeat(32)}`,
        MessageSid: `SM${"b".repeat(32)}`,
        SmsStatus: "received",
        Body: "hello",
        From: SECRETS.phone,
        To: "+15005550006",
      });
      const tw = await fetch(`${served.url}/?channel=twilio`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": "c2lnbmF0dXJl" },
        body: form.toString(),
      });
      const twId = ((await tw.json()) as { id: string }).id;
      expect((await cli(["fixtures", "save", twId])).stdout).toBe(`${join("fixtures", "twilio-message-received.json")}\n`);
      const twFile = readFileSync(join(dir, "fixtures", "twilio-message-received.json"), "utf8");
      expect(twFile).not.toContain(SECRETS.phone.slice(1));
      expect(JSON.parse(twFile).headers["x-twilio-signature"]).toBeUndefined();
      const sentTw = await cli(["trigger", "--fixture", "fixtures/twilio-message-received.json", "--to", receiver.url, "--secret", TWILIO_TOKEN]);
      expect(sentTw.code).toBe(0);
      const twGot = receiver.received.at(-1)!;
      const params = Object.fromEntries(new URLSearchParams(new TextDecoder().decode(twGot.body)));
      expect(params.Body).toBe("hello");
      expect(twilio.validateRequest(TWILIO_TOKEN, twGot.headers["x-twilio-signature"]!, receiver.url, params)).toBe(true);
    } finally {
      receiver.stop();
    }
  });

  test("a corpus of secrets and personal data comes out scrubbed: none of them is in the file, and the file says where", async () => {
    const body = {
      type: "customer.updated",
      data: {
        object: {
          customer_name: "Ada",
          account_country: "GB",
          email: SECRETS.email,
          contact: `Ada <${SECRETS.email}>, cc ${SECRETS.email2}`,
          billing: { card: SECRETS.card, phone: SECRETS.phone, last_ip: SECRETS.ip, v6: SECRETS.ipv6 },
          notes: `key ${SECRETS.stripeKey} and ${SECRETS.githubToken}`,
          session: SECRETS.jwt,
          password: SECRETS.password,
          list: [SECRETS.email, "plain"],
        },
      },
    };
    const res = await fetch(`${served.url}/?channel=corpus&ref=${encodeURIComponent(SECRETS.email)}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: SECRETS.bearer,
        "x-api-key": SECRETS.apiKeyHeader,
        "x-forwarded-for": `${SECRETS.ip}, 198.51.100.2`,
        "stripe-signature": "t=1,v1=abc",
      },
      body: JSON.stringify(body),
    });
    const id = ((await res.json()) as { id: string }).id;
    const saved = await cli(["fixtures", "save", id, "--name", "corpus"]);
    expect(saved.code).toBe(0);
    const text = readFileSync(join(dir, "fixtures", "corpus.json"), "utf8");
    for (const [what, secret] of Object.entries(SECRETS)) {
      expect({ what, found: text.includes(secret) }).toEqual({ what, found: false });
    }
    // Nor in a shape that still reads (the card without its spaces, the e-mail encoded in the query).
    expect(text).not.toContain("4242424242424242");
    expect(text).not.toContain(encodeURIComponent(SECRETS.email));
    const f = JSON.parse(text);
    // The same value gets the same placeholder within the file.
    const o = f.body.data.object;
    expect(o.email).toBe("email-1@example.com");
    expect(o.list[0]).toBe("email-1@example.com");
    expect(o.contact).toBe("Ada <email-1@example.com>, cc email-2@example.com");
    expect(o.billing.last_ip).toMatch(/^192\.0\.2\.\d+$/);
    expect(f.headers["x-forwarded-for"]).toBe(`${o.billing.last_ip}, 192.0.2.2`);
    // [fixtures] keep and scrub of the config.
    expect(o.customer_name).toBe("Ada");
    expect(o.account_country).not.toBe("GB");
    expect(o.list[1]).toBe("plain");
    expect(f.dropped).toEqual(expect.arrayContaining(["authorization", "x-api-key", "stripe-signature"]));
    expect(f.headers.authorization).toBeUndefined();
    expect(f.scrubbed).toEqual(
      expect.arrayContaining([
        "headers.x-forwarded-for",
        "query.ref",
        "body.data.object.email",
        "body.data.object.contact",
        "body.data.object.billing.card",
        "body.data.object.billing.phone",
        "body.data.object.billing.v6",
        "body.data.object.notes",
        "body.data.object.session",
        "body.data.object.password",
        "body.data.object.account_country",
        "body.data.object.list.0",
      ]),
    );
    expect(f.scrubbed).not.toContain("body.data.object.customer_name");
    // The dashboard's download is the same file.
    const download = await fetch(`${served.url}/v1/hooks/${id}/fixture`, { headers: { authorization: `Bearer ${token}` } });
    expect(download.headers.get("content-disposition")).toBe('attachment; filename="stripe-customer-updated.json"');
    expect(await download.text()).toBe(text);
  });

  test("hostile hooks and names: no path from a hook becomes a file name, a bad NAME is refused, a bad fixture is refused", async () => {
    const res = await fetch(`${served.url}/?channel=evil`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-event-type": "../../../etc/passwd" },
      body: "{}",
    });
    const id = ((await res.json()) as { id: string }).id;
    const saved = await cli(["fixtures", "save", id, "--dir", "out"]);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toBe(`${join("out", "etc-passwd.json")}\n`);
    expect(readdirSync(join(dir, "out"))).toEqual(["etc-passwd.json"]);
    // Never over an existing file without --force.
    const twice = await cli(["fixtures", "save", id, "--dir", "out"]);
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toContain("exists");
    expect((await cli(["fixtures", "save", id, "--dir", "out", "--force"])).code).toBe(0);
    for (const name of ["../escape", "a/b", ".hidden", "x..y", ""]) {
      const bad = await cli(["fixtures", "save", id, "--name", name]);
      expect({ name, code: bad.code }).not.toEqual({ name, code: 0 });
      expect(bad.stderr).toContain("a fixture name is");
    }
    expect(existsSync(join(dir, "escape.json"))).toBe(false);

    const base = JSON.parse(readFileSync(join(dir, "out", "etc-passwd.json"), "utf8"));
    const cases: [string, Record<string, unknown>, string][] = [
      ["long method", { method: "POST /x HTTP/1.1\r\nHost: a" }, "method:"],
      ["method", { method: "PO ST" }, "method:"],
      ["header name", { headers: { "bad name": "x" } }, "is not a header name"],
      ["header value", { headers: { "x-a": "b\r\nx-injected: 1" } }, "must be a header value"],
      ["encoding", { body_encoding: "yaml" }, "body_encoding"],
      ["unknown field", { url: "http://169.254.169.254/" }, "unknown field"],
    ];
    for (const [what, change, message] of cases) {
      writeFileSync(join(dir, "bad.json"), JSON.stringify({ ...base, ...change }));
      const sent = await cli(["trigger", "--fixture", "bad.json", "evil"]);
      expect({ what, code: sent.code }).not.toEqual({ what, code: 0 });
      expect(sent.stderr).toContain(message);
    }
    const notAFixture = await cli(["trigger", "--fixture", "package.json"]);
    expect(notAFixture.code).not.toBe(0);
  });

  test("--override changes the body; --edit sends what the editor left; the file itself is unchanged", async () => {
    const sent = await cli(["trigger", "stripe", "customer.created", "stripe", "--secret", STRIPE_SECRET]);
    await cli(["fixtures", "save", idOf(sent.stdout), "--name", "customer"]);
    const before = readFileSync(join(dir, "fixtures", "customer.json"), "utf8");
    const over = await cli([
      "trigger",
      "--fixture",
      "fixtures/customer.json",
      "--secret",
      STRIPE_SECRET,
      "--override",
      "data.object.name=Overridden",
      "--override",
      "livemode=true",
    ]);
    expect(over.code).toBe(0);
    const hook = await api(`/v1/hooks/${idOf(over.stdout)}`);
    expect(hook.payload.data.object.name).toBe("Overridden");
    expect(hook.payload.livemode).toBe(true);

    const editor = join(dir, "editor.sh");
    writeFileSync(editor, `#!/bin/sh\nsed -i.bak 's/"customer.created"/"customer.deleted"/' "$1"\n`);
    chmodSync(editor, 0o755);
    const edited = await cli(["trigger", "--fixture", "fixtures/customer.json", "--secret", STRIPE_SECRET, "--edit"], {
      env: { EDITOR: editor, VISUAL: undefined },
    });
    expect(edited.code).toBe(0);
    expect((await latest("stripe")).event_type).toBe("customer.deleted");
    expect(readFileSync(join(dir, "fixtures", "customer.json"), "utf8")).toBe(before);

    const failing = await cli(["trigger", "--fixture", "fixtures/customer.json", "--edit"], { env: { EDITOR: "false", VISUAL: undefined } });
    expect(failing.code).not.toBe(0);
    expect(failing.stderr).toContain("nothing sent");
  });

  test("an unsigned fixture to a guarded channel is refused; a wrong secret too", async () => {
    const wrong = await cli(["trigger", "--fixture", "fixtures/customer.json", "--secret", "whsec_wrong"]);
    expect(wrong.stdout).toStartWith("401 ");
    expect(wrong.code).toBe(1);
    const unsigned = await cli(["trigger", "--fixture", "fixtures/customer.json"]);
    expect(unsigned.stderr).toContain("sending unsigned");
    expect(unsigned.code).toBe(1);
    const unknown = await cli(["trigger", "--fixture", "fixtures/customer.json", "--sign", "stirpe", "--secret", "x"]);
    expect(unknown.stderr).toContain("did you mean stripe");
  });
});
