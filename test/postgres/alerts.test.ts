/**
 * Alert rules on two executables sharing one PostgreSQL database: one instance at a time
 * evaluates them (each issue opened and resolved once, each event once on every stream), and
 * the other takes over within a minute after the holder is killed with SIGKILL.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
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
