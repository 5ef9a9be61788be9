/**
 * The outbox survives a kill -9 (executable targets: on `executable` SQLite, on `executable-pg`
 * PostgreSQL): a notice whose send failed and that waits for its retry is in the database, so the
 * executable started again on the same data sends it, once, when the receiver answers 200. The
 * receiver is a generic webhook (Standard Webhooks): every try of one notice carries the same
 * webhook-id, the notice's.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { eventually, startTarget, TARGET } from "../helpers/target";

setDefaultTimeout(150_000);
afterAll(removeTempDirs);

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/** A generic webhook receiver: answers `status`, keeps each request (the verified notice and its webhook-id) with what it answered. */
function receiver() {
  const state = { status: 500, requests: [] as { id: string; status: number; notice: { event: string; issue: { id: string; rule: string } } }[] };
  const server = Bun.serve({
    port: 0,
    async fetch(req) {
      const body = await req.text();
      const notice = new Webhook(secret).verify(body, Object.fromEntries(req.headers)) as (typeof state.requests)[number]["notice"];
      state.requests.push({ id: req.headers.get("webhook-id") ?? "", status: state.status, notice });
      return new Response(state.status === 200 ? "ok" : "no", { status: state.status });
    },
  });
  afterAll(() => server.stop(true));
  return { state, url: `http://127.0.0.1:${server.port}/hook` };
}

test.skipIf(TARGET === "source")(
  "killed with SIGKILL while a notice waits for its retry: started again on the same data, it sends the notice once",
  async () => {
    const hook = receiver();
    const raw = {
      storage: { path: join(tempDir("mailroom-outbox-"), "mailroom.db") },
      channels: [{ name: "quiet" }],
      notifiers: [{ name: "hook", kind: "webhook", url: hook.url, secret }],
      alerts: [{ name: "quiet-rule", kind: "silence", channels: ["quiet"], for: "1s", notify: ["hook"] }],
    };
    const first = await startTarget(raw);
    // The issue opens; its notice is tried, refused (500), and waits for its retry in the outbox.
    const waiting = await eventually("the failure recorded", async () => {
      const [status] = (await first.call("GET", "/v1/notifiers")).json;
      return status.last_error === "HTTP 500" && status.queued === 1 ? status : undefined;
    });
    expect(waiting).toMatchObject({ name: "hook", sent: 0, failed: 0 });
    const [issue] = (await first.call("GET", "/v1/issues")).json;
    await first.stop(); // SIGKILL, then waits for the process to be gone
    const tried = hook.state.requests.length;
    expect(tried).toBeGreaterThan(0);
    hook.state.status = 200;

    const again = await startTarget(raw);
    // Its tries so far were of one notice: they carried its id.
    const id = hook.state.requests[0]!.id;
    expect(hook.state.requests.every((r) => r.id === id && r.status === 500 && r.notice.issue.id === issue.id)).toBe(true);
    const delivered = await eventually("the notice delivered", async () => hook.state.requests.find((r) => r.status === 200), 90_000);
    expect(delivered).toMatchObject({ id, notice: { event: "opened", issue: { id: issue.id, rule: "quiet-rule" } } });
    // Once nothing is queued nothing more can be sent: the first went out once. The restart neither
    // resolved the issue nor opened another (the silence goes on from the database's last hook).
    const status = await eventually("the outbox emptied", async () => {
      const [s] = (await again.call("GET", "/v1/notifiers")).json;
      return s.queued === 0 && s.sent >= 1 ? s : undefined;
    });
    expect(status).toMatchObject({ failed: 0 });
    expect((await again.call("GET", "/v1/issues")).json.map((i: { id: string; state: string }) => [i.id, i.state])).toEqual([[issue.id, "open"]]);
    expect(hook.state.requests.filter((r) => r.id === id && r.status === 200)).toHaveLength(1);
    expect(status.sent).toBe(hook.state.requests.filter((r) => r.status === 200).length);
  },
);
