/** Issue events on the live stream: issue.opened, issue.acknowledged, issue.resolved, each with the Issue. */
import { afterEach, expect, test } from "bun:test";
import { AUTH, createTestApp, type TestApp } from "../helpers/app";
import { sseReader } from "../live/sse";

let app: TestApp;
const stops: (() => void)[] = [];
afterEach(() => {
  stops.splice(0).forEach((s) => s());
  app?.close();
});

test("an issue opened, acknowledged and resolved is streamed as issue.* events with the Issue", async () => {
  app = createTestApp({ channels: [{ name: "stripe" }], alerts: [{ name: "quiet", kind: "silence", channels: ["stripe"], for: "5m" }] });
  const l = app.listen();
  stops.push(l.stop);
  const res = await fetch(`${l.url}/v1/stream`, { headers: AUTH });
  const stream = sseReader(res);
  stops.push(() => void stream.cancel());
  app.clock.advance(6 * 60_000);
  await app.runner.tick();
  const opened = await stream.next((e) => e.event.startsWith("issue."));
  expect(opened.event).toBe("issue.opened");
  const issue = JSON.parse(opened.data);
  expect(issue).toMatchObject({ rule: "quiet", scope: "stripe", state: "open" });
  await app.call("POST", `/v1/issues/${issue.id}/ack`);
  expect(JSON.parse((await stream.next((e) => e.event === "issue.acknowledged")).data).state).toBe("acknowledged");
  await app.call("POST", `/v1/issues/${issue.id}/resolve`);
  const resolved = JSON.parse((await stream.next((e) => e.event === "issue.resolved")).data);
  expect(resolved.history.map((h: { action: string; by: string }) => `${h.action} ${h.by}`)).toEqual([
    "opened mailroom",
    "acknowledged api:test",
    "resolved api:test",
  ]);
});
