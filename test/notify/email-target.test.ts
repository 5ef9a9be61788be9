/**
 * The e-mail notifier on every target: on `executable` and `executable-pg` the compiled binary
 * sends with the nodemailer bundled inside it, to a local SMTP server (smtp-server): a test notice,
 * and an issue's notice sent by a rule. On the executables also over STARTTLS and over implicit
 * TLS (`tls = "tls"`, SMTPS), the test's self-signed certificate trusted through
 * NODE_EXTRA_CA_CERTS (an in-process target cannot be given one after it started).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { eventually, startTarget, TARGET } from "../helpers/target";

setDefaultTimeout(60_000);
const dir = mkdtempSync(join(tmpdir(), "mailroom-smtp-target-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The test's self-signed certificate for localhost and 127.0.0.1 (openssl), made once: key.pem and cert.pem in `dir`. */
let certificate: string | undefined;
function selfSigned(): string {
  if (certificate) return certificate;
  const made = Bun.spawnSync(
    ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"].concat([
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ]),
  );
  expect(made.exitCode).toBe(0);
  return (certificate = join(dir, "cert.pem"));
}

/**
 * An SMTP server on 127.0.0.1 that keeps each mail with whether it came over TLS and who logged in:
 * in the clear, offering STARTTLS, or speaking TLS from the first byte (`secure`, SMTPS).
 */
async function smtpServer(options: { tls: "none" | "starttls" | "tls" }) {
  const mails: { secure: boolean; user: string | undefined; data: string }[] = [];
  const certified = () => (selfSigned(), { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) });
  const tls = options.tls === "none" ? { disabledCommands: ["STARTTLS"] } : options.tls === "starttls" ? certified() : { ...certified(), secure: true };
  const smtp = new SMTPServer({
    ...tls,
    onAuth(auth, _s, done) {
      if (auth.username === "mailroom" && auth.password === "smtp-pass") done(null, { user: auth.username });
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
  // A refused TLS handshake (an untrusted certificate) is an error of the server's connection: expected.
  smtp.on("error", () => {});
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  afterAll(() => new Promise<void>((r) => smtp.close(() => r())));
  return { mails, port: (smtp.server.address() as { port: number }).port };
}

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
    const smtp = await smtpServer({ tls: "none" });
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
    const smtp = await smtpServer({ tls: "starttls" });
    const target = await startTarget({ notifiers: [email(smtp.port, "starttls")] }, { env: { SMTP_PASSWORD: "smtp-pass", NODE_EXTRA_CA_CERTS: selfSigned() } });
    expect((await target.call("POST", "/v1/notifiers/mail/test")).json).toEqual({ name: "mail", sent: true, error: null });
    expect(smtp.mails[0]).toMatchObject({ secure: true, user: "mailroom" });
  });

  test.skipIf(TARGET === "source")('over implicit TLS (tls = "tls", SMTPS): a test notice, then an issue\'s, logged in over TLS', async () => {
    const smtp = await smtpServer({ tls: "tls" });
    const target = await startTarget(
      {
        channels: [{ name: "quiet" }],
        notifiers: [email(smtp.port, "tls")],
        alerts: [{ name: "quiet-rule", kind: "silence", channels: ["quiet"], for: "1s", notify: ["mail"] }],
      },
      { env: { SMTP_PASSWORD: "smtp-pass", NODE_EXTRA_CA_CERTS: selfSigned() } },
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
      const smtp = await smtpServer({ tls: "tls" });
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
