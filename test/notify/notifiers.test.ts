/** Notifiers send each service's documented message to local receivers; a failing one is retried. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { Webhook } from "standardwebhooks";
import { silentLog } from "../../src/lib/log";
import type { IssueNotice } from "../../src/notify/notice";
import { createNotifiers } from "../../src/notify/notifiers";

const notice: IssueNotice = {
  event: "opened",
  issue: {
    id: "01jdxq0000000000000000000a",
    rule: "quiet-stripe",
    kind: "silence",
    scope: "stripe",
    summary: "no hook on stripe for 30 min <@everyone>",
    state: "open",
    opened_at: "2026-11-28T10:00:00Z",
    last_seen_at: "2026-11-28T10:00:00Z",
    resolved_at: null,
    count: 1,
    hooks_query: null,
  },
  url: "https://mailroom.example/issues/01jdxq0000000000000000000a",
};
const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const received: { path: string; headers: Headers; body: string }[] = [];
let failures = 2;
const server = Bun.serve({
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === "/flaky" && failures-- > 0) return new Response("no", { status: 503 });
    received.push({ path, headers: req.headers, body: await req.text() });
    return new Response("ok");
  },
});
afterAll(() => server.stop(true));
const at = (p: string) => `http://127.0.0.1:${server.port}${p}`;
const body = (p: string) => JSON.parse(received.find((r) => r.path === p)?.body ?? "null");

describe("notifiers", () => {
  test("Slack, Discord, Teams and a signed webhook get their formats; a failing receiver is retried", async () => {
    const notify = createNotifiers(
      [
        { name: "s", kind: "slack", url: at("/slack") },
        { name: "d", kind: "discord", url: at("/discord") },
        { name: "t", kind: "teams", url: at("/teams") },
        { name: "w", kind: "webhook", url: at("/webhook"), secret },
        { name: "f", kind: "slack", url: at("/flaky") },
      ],
      { log: silentLog, backoff: { initial: 1, max: 2 } },
    );
    notify.send(["s", "d", "t", "w", "f", "unknown"], notice);
    await notify.idle();
    expect(body("/slack").text).toContain("quiet-stripe on stripe");
    expect(body("/slack").blocks[0].type).toBe("header");
    expect(body("/slack").blocks[1].text.text).toContain("&lt;@everyone&gt;");
    expect(body("/discord")).toMatchObject({ allowed_mentions: { parse: [] } });
    expect(body("/discord").content).toContain(notice.url);
    const card = body("/teams");
    expect(card.type).toBe("message");
    expect(card.attachments[0].contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(card.attachments[0].content.type).toBe("AdaptiveCard");
    const hook = received.find((r) => r.path === "/webhook");
    if (!hook) throw new Error("webhook not received");
    expect(new Webhook(secret).verify(hook.body, Object.fromEntries(hook.headers))).toEqual(notice);
    expect(body("/flaky").text).toContain("opened");
    const flaky = notify.status().find((s) => s.name === "f");
    expect(flaky).toMatchObject({ sent: 1, failed: 0, last_error: "HTTP 503" });
  });

  test("e-mail over plain SMTP: subject, text and escaped HTML", async () => {
    const mails: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _s, done) {
        let data = "";
        stream.on("data", (c) => {
          data += c;
        });
        stream.on("end", () => {
          mails.push(data);
          done();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
    const port = (smtp.server.address() as { port: number }).port;
    const notify = createNotifiers([{ name: "m", kind: "email", host: "127.0.0.1", port, tls: "none", from: "m@example.com", to: ["a@example.com"] }], {
      log: silentLog,
      backoff: { initial: 1, max: 2 },
    });
    notify.send(["m"], notice);
    await notify.idle();
    await new Promise<void>((r) => smtp.close(() => r()));
    expect(notify.status()[0]).toMatchObject({ sent: 1, last_error: null });
    expect(mails[0]).toContain("Subject: [Mailroom] opened: quiet-stripe on stripe");
    expect(mails[0]).toContain("&lt;@everyone&gt;");
  });

  test("e-mail over STARTTLS with a self-signed certificate, with a login", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mailroom-smtp-"));
    const made = Bun.spawnSync([
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ]);
    expect(made.exitCode).toBe(0);
    const cert = readFileSync(join(dir, "cert.pem"), "utf8");
    const mails: { secure: boolean; user: string | undefined; data: string }[] = [];
    const smtp = new SMTPServer({
      key: readFileSync(join(dir, "key.pem")),
      cert,
      onAuth(auth, _s, done) {
        if (auth.username === "mailroom" && auth.password === "pw") done(null, { user: auth.username });
        else done(new Error("bad login"));
      },
      onData(stream, session, done) {
        let data = "";
        stream.on("data", (c) => {
          data += c;
        });
        stream.on("end", () => {
          mails.push({ secure: session.secure, user: session.user as string | undefined, data });
          done();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
    const port = (smtp.server.address() as { port: number }).port;
    const notify = createNotifiers(
      [{ name: "m", kind: "email", host: "127.0.0.1", port, tls: "starttls", user: "mailroom", password: "pw", from: "m@example.com", to: ["a@example.com"] }],
      { log: silentLog, backoff: { initial: 1, max: 2 }, smtpCa: cert },
    );
    notify.send(["m"], { ...notice, event: "resolved" });
    await notify.idle();
    await new Promise<void>((r) => smtp.close(() => r()));
    expect(notify.status()[0]).toMatchObject({ sent: 1, last_error: null });
    expect(mails[0]).toMatchObject({ secure: true, user: "mailroom" });
    expect(mails[0]?.data).toContain("Subject: [Mailroom] resolved: quiet-stripe on stripe");
  });
});
