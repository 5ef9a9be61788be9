/**
 * A local SMTP server (smtp-server) for the e-mail notifier's tests, and the self-signed
 * certificate its TLS uses: in the clear, offering STARTTLS, or speaking TLS from the first byte
 * (SMTPS). It keeps each mail with whether it came over TLS and who logged in.
 */
import { afterAll } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";

export type Mail = { secure: boolean; user: string | undefined; data: string };

let made: { key: string; cert: string; certPath: string } | undefined;
let dir: string | undefined;
/**
 * Removes the certificate's folder; made again by the next selfSigned(). Each test file that uses
 * the certificate calls it from its own afterAll, registered at its top: one registered here, at
 * import, ran for the first file only of a `bun test` run of several (the module is shared), and
 * the folders of the others were left behind; registered inside a test, it would run when that
 * test ends, and an executable started later would find no certificate to trust.
 */
export function removeSelfSigned(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
  (dir = undefined), (made = undefined);
}

/** A self-signed certificate for localhost and 127.0.0.1 (openssl), made once per test file. */
export function selfSigned(): { key: string; cert: string; certPath: string } {
  if (made) return made;
  dir = mkdtempSync(join(tmpdir(), "mailroom-smtp-"));
  const args = [
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
  ];
  const run = Bun.spawnSync(["openssl", ...args, "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")]);
  if (run.exitCode !== 0) throw new Error(`openssl failed: ${run.stderr}`);
  const certPath = join(dir, "cert.pem");
  return (made = { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(certPath, "utf8"), certPath });
}

/**
 * Listens on 127.0.0.1 until `close`, or the end of the test that started it. `login`: the user and password it accepts (any
 * other is refused); without, no login is asked. `errors`: the server's connection errors (a
 * refused TLS handshake is one).
 */
export async function smtpServer(options: { tls: "none" | "starttls" | "tls"; login?: { user: string; password: string } }) {
  const mails: Mail[] = [];
  const errors: string[] = [];
  const { key, cert } = options.tls === "none" ? { key: undefined, cert: undefined } : selfSigned();
  const tls = options.tls === "none" ? { disabledCommands: ["STARTTLS"] } : { key, cert, secure: options.tls === "tls" };
  const { login } = options;
  const smtp = new SMTPServer({
    ...tls,
    authOptional: !login,
    onAuth(auth, _s, done) {
      if (login && auth.username === login.user && auth.password === login.password) done(null, { user: auth.username });
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
  smtp.on("error", (e) => void errors.push(String(e.message)));
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  let closed = false;
  const close = () => (closed ? Promise.resolve() : ((closed = true), new Promise<void>((r) => smtp.close(() => r()))));
  afterAll(close);
  return { mails, errors, port: (smtp.server.address() as { port: number }).port, close };
}
