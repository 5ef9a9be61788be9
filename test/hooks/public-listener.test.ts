import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AUTH, startTarget, type Target } from "../helpers/target";

// [server.public]: a second listener serving only what the internet should reach. Runs on every
// target (MAILROOM_TEST_TARGET): the executable prints the public listener's address at start.

describe("the public listener", () => {
  let t: Target;
  let pub: string;
  beforeAll(async () => {
    t = await startTarget({ server: { public: { port: 0 } }, metrics: { auth: false } });
    pub = t.publicUrl()!;
    expect(pub).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
  afterAll(() => t.stop());

  test("catches on /?channel=NAME, and the hook is seen on the private listener", async () => {
    const body = '{"id":"evt_1","amount":100}';
    const res = await fetch(`${pub}/?channel=stripe&x=1`, { method: "POST", body, headers: { "content-type": "application/json", "x-sig": "s" } });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    const hook = await t.call("GET", `/v1/hooks/${id}`);
    expect(hook.status).toBe(200);
    expect(hook.json).toMatchObject({ id, channel: "stripe" });
  });

  test("answers GET / (the health check) with a page that links to nothing it does not serve", async () => {
    for (const path of ["/", "/?"]) {
      const res = await fetch(`${pub}${path}`);
      const page = await res.text();
      expect([path, res.status, res.headers.get("content-type")]).toEqual([path, 200, "text/html; charset=utf-8"]);
      expect(page).toContain("/?channel=NAME");
      expect(page).not.toMatch(/href|\/ui|\/docs|\/openapi|\/v1|dashboard/i);
    }
    expect((await fetch(`${pub}/`, { method: "HEAD" })).status).toBe(200);
    // The private listener's page still points to the dashboard and the docs.
    expect(await (await t.fetch("/")).text()).toContain('href="/ui/"');
  });

  test("answers 404 to the dashboard, the APIs, metrics and the docs, whatever credentials come with them", async () => {
    const paths = [
      "/ui/",
      "/ui",
      "/ui/api/info",
      "/ui/setup",
      "/v1/channels",
      "/v1/stream",
      "/metrics",
      "/docs",
      "/openapi/",
      "/openapi/webhooks.json",
      "/admin/v1/accounts",
      "/api/v1/projects",
      "/translator/v1/jobs",
      "/favicon.ico",
      "//v1/channels",
    ];
    for (const path of paths) {
      for (const method of ["GET", "POST", "DELETE"]) {
        const res = await fetch(`${pub}${path}`, { method, headers: AUTH, redirect: "manual" });
        const body = await res.text();
        expect({ path, method, status: res.status }).toEqual({ path, method, status: 404 });
        expect(JSON.parse(body)).toMatchObject({ code: 5 });
      }
    }
    // The private listener still serves them (one listener keeps doing everything).
    expect((await t.fetch("/metrics")).status).toBe(200);
    expect((await t.call("GET", "/v1/channels")).status).toBe(200);
  });

  test("the private listener still catches too", async () => {
    expect((await t.post("private", "{}")).status).toBe(200);
  });
});

test("one listener stays the default: no public address is printed or served", async () => {
  const t = await startTarget();
  expect(t.publicUrl()).toBeUndefined();
  expect((await t.post("one", "{}")).status).toBe(200);
  expect((await t.call("GET", "/v1/channels/one")).status).toBe(200);
});
