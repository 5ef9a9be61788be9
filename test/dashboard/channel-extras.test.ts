import { expect, test } from "bun:test";
import { AUTH, dashboardApp } from "./support";

test("a channel's custom response and its dedup counter are set and read from the dashboard, with a session from this origin", async () => {
  const app = await dashboardApp({ channels: [{ name: "dup", dedup: {} }] });
  // Changing what senders get on the dashboard's origin is an admin action; a member reads it.
  const byMember = await app.call("PUT", "/ui/api/channels/flaky/response", { status: 401 }, app.member);
  expect([byMember.status, byMember.json.message]).toEqual([403, "only an admin may do this"]);
  expect((await app.call("DELETE", "/ui/api/channels/flaky/response", undefined, app.member)).status).toBe(403);
  const put = await app.call("PUT", "/ui/api/channels/flaky/response", { sequence: [{ status: 500, body: "later" }] }, app.admin);
  expect(put.status).toBe(200);
  expect(put.json).toMatchObject({ channel: "flaky", source: "api", answered: 0 });
  const first = await app.post("flaky", "{}");
  expect([first.status, await first.text()]).toEqual([500, "later"]);
  expect((await app.post("flaky", "{}")).status).toBe(200);
  expect((await app.call("GET", "/ui/api/channels/flaky/response", undefined, app.member)).json.answered).toBe(2);

  const delivery = { "x-github-delivery": "d-1" };
  await app.post("dup", "{}", delivery);
  await app.post("dup", "{}", delivery);
  expect((await app.call("GET", "/ui/api/channels/dup/dedup", undefined, app.member)).json).toMatchObject({ enabled: true, dropped: "1" });

  // The dashboard's endpoints want the session and this origin; a bearer token opens none of them.
  expect((await app.call("PUT", "/ui/api/channels/flaky/response", {}, { cookie: app.admin.cookie ?? "" })).status).toBe(403);
  expect((await app.call("GET", "/ui/api/channels/flaky/response", undefined, AUTH)).status).toBe(401);
  expect((await app.call("PUT", "/ui/api/channels/flaky/response", { status: 99 }, app.admin)).status).toBe(400);
  expect((await app.call("DELETE", "/ui/api/channels/flaky/response", undefined, app.admin)).status).toBe(200);
});
