/**
 * The e-mail notifier on every target: on `executable` and `executable-pg` the compiled binary
 * sends with the nodemailer bundled inside it, to a local SMTP server (smtp-server): a test notice,
 * and an issue's notice sent by a rule. On the executables also over STARTTLS and over implicit
 * TLS (`tls = "tls"`, SMTPS), the test's self-signed certificate trusted through
 * NODE_EXTRA_CA_CERTS (an in-process target cannot be given one after it started).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eventually, startTarget, TARGET } from "../helpers/target";
import { removeSelfSigned, selfSigned, smtpServer } from "./smtp";

afterAll(removeSelfSigned);

const LOGIN = { user: "mailroom", password: "smtp-pass" };

setDefaultTimeout(60_000);
const email = (port: number, tls: string) => ({
  name: "mail",
  kind: "email",
  host: "127.0.0.1",
  port,
  tls,
  user: "mailroom",
  password_env: "SMTP_PASSWORD",
  from: "mailroom@example.com",
  to: ["ops@example.com"],
});

describe(`the e-mail notifier on ${TARGET}`, () => {
  test("a test notice, then an issue's: each a mail with its subject, logged in", async () => {
    const smtp = await smtpServer({ tls: "none", login: LOGIN });
    const target = await startTarget(
      {
        channels: [{ name: "quiet" }],
        notifiers: [email(smtp.port, "none")],
        alerts: [{ name: "quiet-rule", kind: "silence", channels: ["quiet"], for: "1s", notify: ["mail"] }],
      },
      { env: { SMTP_PASSWORD: "smtp-pass" } },
    );
    const sent = await target.call("POST", "/v1/notifiers/mail/test");
    expect(sent.json).toEqual({ name: "mail", sent: true, error: null });
    expect(smtp.mails[0]).toMatchObject({ user: "mailroom" });
    expect(smtp.mails[0]!.data).toContain("Subject: [Mailroom] test: test on mail");
    const opened = await eventually("the issue's mail", async () => smtp.mails.find((m) => m.data.includes("Subject: [Mailroom] opened: quiet-rule on quiet")));
    expect(opened.data).toContain("no hook on quiet for 1s");
    const [status] = (await target.call("GET", "/v1/notifiers")).json;
    expect(status).toMatchObject({ name: "mail", failed: 0, last_error: null });
    expect(JSON.stringify(status)).not.toContain("smtp-pass");
  });

  test.skipIf(TARGET === "source")("over STARTTLS with the test's certificate trusted through NODE_EXTRA_CA_CERTS", async () => {
    const smtp = await smtpServer({ tls: "starttls", login: LOGIN });
    const target = await startTarget(
      { notifiers: [email(smtp.port, "starttls")] },
      { env: { SMTP_PASSWORD: "smtp-pass", NODE_EXTRA_CA_CERTS: selfSigned().certPath } },
    );
    expect((await target.call("POST", "/v1/notifiers/mail/test")).json).toEqual({ name: "mail", sent: true, error: null });
    expect(smtp.mails[0]).toMatchObject({ secure: true, user: "mailroom" });
  });

  test.skipIf(TARGET === "source")('over implicit TLS (tls = "tls", SMTPS): a test notice, then an issue\'s, logged in over TLS', async () => {
    const smtp = await smtpServer({ tls: "tls", login: LOGIN });
    const target = await startTarget(
      {
        channels: [{ name: "quiet" }],
        notifiers: [email(smtp.port, "tls")],
        alerts: [{ name: "quiet-rule", kind: "silence", channels: ["quiet"], for: "1s", notify: ["mail"] }],
      },
      { env: { SMTP_PASSWORD: "smtp-pass", NODE_EXTRA_CA_CERTS: selfSigned().certPath } },
    );
    expect((await target.call("POST", "/v1/notifiers/mail/test")).json).toEqual({ name: "mail", sent: true, error: null });
    expect(smtp.mails[0]).toMatchObject({ secure: true, user: "mailroom" });
    expect(smtp.mails[0]!.data).toContain("Subject: [Mailroom] test: test on mail");
    const opened = await eventually("the issue's mail", async () => smtp.mails.find((m) => m.data.includes("Subject: [Mailroom] opened: quiet-rule on quiet")));
    expect(opened).toMatchObject({ secure: true, user: "mailroom" });
    const [status] = (await target.call("GET", "/v1/notifiers")).json;
    expect(status).toMatchObject({ name: "mail", target: `smtp 127.0.0.1:${smtp.port} (tls) to ops@example.com`, failed: 0, last_error: null });
    expect(JSON.stringify(status)).not.toContain("smtp-pass");
  });

  test.skipIf(TARGET === "source")(
    "over implicit TLS, a certificate that is not trusted is refused in the handshake: nothing sent, no secret in the error",
    async () => {
      const smtp = await smtpServer({ tls: "tls", login: LOGIN });
      const target = await startTarget({ notifiers: [email(smtp.port, "tls")] }, { env: { SMTP_PASSWORD: "smtp-pass" } });
      const sent = (await target.call("POST", "/v1/notifiers/mail/test")).json;
      expect(sent).toMatchObject({ name: "mail", sent: false });
      expect(sent.error).toMatch(/self[- ]signed|certificate/i);
      expect(JSON.stringify(sent)).not.toContain("smtp-pass");
      expect(smtp.mails).toEqual([]);
      const [status] = (await target.call("GET", "/v1/notifiers")).json;
      expect(status.last_error).toBe(sent.error);
    },
  );
});
