/**
 * Requests found by fuzzing every route that used to get a 500, a wrong route or seconds of work.
 */
import { expect, test } from "bun:test";
import { AUTH, createTestApp } from "./helpers/app";

test("a Host of three characters or fewer routes by the real path (Elysia's standardHostname is off)", async () => {
  const t = createTestApp();
  const server = t.listen();
  try {
    for (const host of ["x", "api"]) {
      const listed = await fetch(`${server.url}/v1/channels`, { headers: { ...AUTH, host } });
      expect(listed.status).toBe(200);
      // A path that is not a route is a 404, never a route shifted by the host's length (it was a 500).
      const shifted = await fetch(`${server.url}/xx/v1/account`, { headers: { host } });
      expect(shifted.status).toBe(404);
      expect(await shifted.json()).toMatchObject({ code: 5 });
    }
    const caught = await fetch(`${server.url}/ab/?channel=zz`, { method: "POST", headers: { host: "x" }, body: "{}" });
    expect(caught.status).toBe(404);
    expect((await t.call("GET", "/v1/channels/zz")).status).toBe(404);
  } finally {
    server.stop();
  }
  expect((await t.app.handle(new Request("http://x/v1/channels", { headers: AUTH }))).status).toBe(200);
});
