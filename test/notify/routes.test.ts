/** The notifier routes: /v1 behind API keys, /ui/api for admins only; a test sent to a local receiver; no secret in any answer. */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { type DashboardApp, dashboardApp, ORIGIN } from "../dashboard/support";

const SLACK_PATH = "/services/T0000/B0000/XXXXsecretXXXX";
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const PASSWORD = "smtp-pass-7f3c";
const received: { path: string; body: string }[] = [];
const receiver = Bun.serve({
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    if (path.startsWith("/broken")) return new Response("no", { status: 500 });
    received.push({ path, body: await req.text() });
    return new Response("ok");
  },
});
afterAll(() => receiver.stop(true));
const base = `http://127.0.0.1:${receiver.port}`;

type App = DashboardApp;
let app: App;
afterEach(() => app?.close());

async function start() {
  app = await dashboardApp(
    {
      notifiers: [
        { name: "ops", kind: "slack", url: `${base}${SLACK_PATH}` },
        { name: "hooked", kind: "webhook", url: `${base}/broken/${SECRET.slice(6, 20)}`, secret: SECRET },
        {
          name: "mail",
          kind: "email",
          host: "127.0.0.1",
          port: 1,
          tls: "none",
          user: "ops",
          password_env: "SMTP_PASSWORD",
          from: "mailroom@example.com",
          to: ["ops@example.com"],
        },
      ],
    },
    { env: { SMTP_PASSWORD: PASSWORD } },
  );
}

describe("notifier routes", () => {
  test("the list says where each sends without its secrets; a test reaches the receiver, a failing one says why", async () => {
    await start();
    const list = (await app.call("GET", "/v1/notifiers")).json as { name: string; kind: string; target: string }[];
    expect(list.map((n) => [n.name, n.kind, n.target])).toEqual([
      ["ops", "slack", `${base}/…`],
      ["hooked", "webhook", `${base}/…`],
      ["mail", "email", "smtp 127.0.0.1:1 (none) to ops@example.com"],
    ]);

    const sent = await app.call("POST", "/v1/notifiers/ops/test");
    expect(sent.json).toEqual({ name: "ops", sent: true, error: null });
    const got = received.find((r) => r.path === SLACK_PATH)!;
    expect(JSON.parse(got.body).text).toContain('A test from Mailroom\'s notifier "ops"');

    const failed = await app.call("POST", "/v1/notifiers/hooked/test");
    expect(failed.json).toMatchObject({ name: "hooked", sent: false, error: "HTTP 500" });
    const mail = await app.call("POST", "/v1/notifiers/mail/test");
    expect(mail.json.sent).toBe(false);
    const after = (await app.call("GET", "/v1/notifiers")).json as { name: string; last_error: string | null; last_error_at: string | null }[];
    expect(after.find((n) => n.name === "hooked")).toMatchObject({ last_error: "HTTP 500" });
    expect(after.find((n) => n.name === "mail")!.last_error_at).not.toBeNull();

    // No answer carries a URL's path, the signing secret or the SMTP password.
    const answers = JSON.stringify([list, sent.json, failed.json, mail.json, after]);
    for (const secret of [SLACK_PATH, "XXXXsecretXXXX", SECRET, SECRET.slice(6, 20), PASSWORD]) expect(answers).not.toContain(secret);
  });

  test("unknown names are 404; members are refused under /ui/api, admins and full keys allowed; nobody else", async () => {
    await start();
    expect((await app.call("POST", "/v1/notifiers/nope/test")).json).toMatchObject({ code: 5, details: [] });
    expect((await app.call("GET", "/ui/api/notifiers", undefined, app.admin)).json).toHaveLength(3);
    expect((await app.call("GET", "/ui/api/notifiers", undefined, app.member)).status).toBe(403);
    expect((await app.call("POST", "/ui/api/notifiers/ops/test", undefined, app.member)).status).toBe(403);
    expect((await app.call("POST", "/ui/api/notifiers/ops/test", undefined, app.admin)).json.sent).toBe(true);
    expect((await app.call("GET", "/ui/api/notifiers", undefined, ORIGIN)).status).toBe(401);
    expect((await app.call("GET", "/v1/notifiers", undefined, {})).status).toBe(401);
  });
});
