/**
 * Alert rules on two executables sharing one PostgreSQL database: one instance at a time
 * evaluates them (each issue opened and resolved once, each event once on every stream) and
 * sends the notifiers' outbox, and the other takes over within a minute after the holder is
 * killed with SIGKILL, notices waiting for their retry included.
 */
import { afterAll, afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { AUTH } from "../helpers/client";
import { eventually, killInstances, newDatabase, startInstance } from "../helpers/instances";
import { sseReader } from "../live/sse";

afterEach(killInstances);
setDefaultTimeout(120_000);

const RAW = { channels: [{ name: "quiet" }], alerts: [{ name: "quiet", kind: "silence", channels: ["quiet"], for: "1s" }] };

test("two instances: each issue event happens once; after kill -9 of the evaluating one, the other takes over within a minute", async () => {
  const url = await newDatabase();
  // A starts alone: it holds the rules' lease.
  const a = await startInstance(url, RAW);
  await eventually(async () => (await a.call("GET", "/v1/issues")).json.length === 1, 15_000, "A opens the issue");
  const b = await startInstance(url, RAW);
  const stream = sseReader(await fetch(`${b.url}/v1/stream`, { headers: AUTH }));
  const nextIssueEvent = async () => {
    const e = await stream.next((ev) => ev.event.startsWith("issue."));
    return `${e.event} ${JSON.parse(e.data).id}`;
  };
  const first = (await b.call("GET", "/v1/issues")).json[0].id;

  // A hook caught by B clears the silence: A resolves the issue, then opens another after 1 s.
  expect((await b.post("quiet", "{}")).status).toBe(200);
  expect(await nextIssueEvent()).toBe(`issue.resolved ${first}`);
  const second = (await nextIssueEvent()).split(" ");
  expect(second[0]).toBe("issue.opened");
  let issues = (await b.call("GET", "/v1/issues")).json as { id: string; state: string; history: { action: string }[] }[];
  expect(issues.map((i) => [i.id, i.state])).toEqual([
    [second[1], "open"],
    [first, "resolved"],
  ]);
  expect(issues[1]!.history.map((h) => h.action)).toEqual(["opened", "resolved"]);

  // The evaluating instance dies; B resolves and opens again on its own.
  await a.kill();
  const killedAt = performance.now();
  expect((await b.post("quiet", "{}")).status).toBe(200);
  expect(await nextIssueEvent()).toBe(`issue.resolved ${second[1]}`);
  expect(performance.now() - killedAt).toBeLessThan(60_000);
  const third = (await nextIssueEvent()).split(" ");
  expect(third[0]).toBe("issue.opened");
  issues = (await b.call("GET", "/v1/issues")).json;
  expect(issues.map((i) => i.state)).toEqual(["open", "resolved", "resolved"]);
  for (const i of issues.slice(1)) expect(i.history.map((h) => h.action)).toEqual(["opened", "resolved"]);
  await stream.cancel();
});

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/** A generic webhook receiver answering `status`: each request's webhook-id, the verified notice and what it answered. */
function receiver() {
  const state = { status: 500, requests: [] as { id: string; status: number; event: string; issue: string }[] };
  const server = Bun.serve({
    port: 0,
    async fetch(req) {
      const notice = new Webhook(secret).verify(await req.text(), Object.fromEntries(req.headers)) as { event: string; issue: { id: string } };
      state.requests.push({ id: req.headers.get("webhook-id") ?? "", status: state.status, event: notice.event, issue: notice.issue.id });
      return new Response(null, { status: state.status });
    },
  });
  afterAll(() => server.stop(true));
  return { state, url: `http://127.0.0.1:${server.port}/hook` };
}

test("two instances: the lease holder killed with SIGKILL while a notice waits for its retry, the other sends it, once", async () => {
  const url = await newDatabase();
  const hook = receiver();
  const raw = {
    channels: [{ name: "quiet" }],
    notifiers: [{ name: "hook", kind: "webhook", url: hook.url, secret }],
    alerts: [{ name: "quiet", kind: "silence", channels: ["quiet"], for: "1s", notify: ["hook"] }],
  };
  const a = await startInstance(url, raw);
  await eventually(async () => (await a.call("GET", "/v1/issues")).json.length === 1, 15_000, "A opens the issue");
  const b = await startInstance(url, raw);
  const [issue] = (await b.call("GET", "/v1/issues")).json;
  // The counts are the database's: B, which sends nothing, sees A's failures. A fresh one is
  // waited for, so that A dies while the notice waits for its retry, not in the middle of a send.
  const seen = (await b.call("GET", "/v1/notifiers")).json[0].last_error_at;
  await eventually(
    async () => {
      const [s] = (await b.call("GET", "/v1/notifiers")).json;
      return s.last_error === "HTTP 500" && s.last_error_at !== seen && s.queued === 1;
    },
    15_000,
    "a failed try recorded",
  );
  await a.kill();
  const killedAt = performance.now();
  hook.state.status = 200;
  const id = hook.state.requests[0]!.id;
  expect(hook.state.requests.every((r) => r.id === id && r.status === 500 && r.event === "opened" && r.issue === issue.id)).toBe(true);

  await eventually(async () => hook.state.requests.some((r) => r.status === 200), 60_000, "B sends the notice");
  expect(performance.now() - killedAt).toBeLessThan(60_000);
  await eventually(
    async () => {
      const [s] = (await b.call("GET", "/v1/notifiers")).json;
      return s.queued === 0 && s.sent >= 1;
    },
    15_000,
    "the outbox emptied",
  );
  // Delivered once, with the id of its earlier tries; every notice sent went out once.
  expect(hook.state.requests.filter((r) => r.status === 200 && r.id === id)).toHaveLength(1);
  const delivered = hook.state.requests.filter((r) => r.status === 200).map((r) => r.id);
  expect(new Set(delivered).size).toBe(delivered.length);
  expect((await b.call("GET", "/v1/notifiers")).json[0]).toMatchObject({ sent: delivered.length, failed: 0 });
});
