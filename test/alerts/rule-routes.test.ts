/** /v1/alerts: rules made, changed and deleted through the API, checked as check-config checks the file, in effect at once. */
import { afterEach, describe, expect, test } from "bun:test";
import { buildConfig, type ConfigError } from "../../src/load-config";
import { type DashboardApp, dashboardApp, ORIGIN } from "../dashboard/support";
import { recordingNotify } from "./helpers";

type App = DashboardApp;
let app: App;
afterEach(() => app?.close());

const FILE_RULE = { name: "stripe-quiet", kind: "silence", channels: ["stripe"], for: "30m", notify: ["ops"] };

async function start() {
  const rec = recordingNotify();
  app = await dashboardApp(
    { channels: [{ name: "stripe" }], notifiers: [{ name: "ops", kind: "slack", url: "https://hooks.example/ops" }], alerts: [FILE_RULE] },
    { notify: rec.notify },
  );
  return rec;
}
const issues = async () => (await app.call("GET", "/v1/issues")).json as any[];
async function hooks(n: number, body = "{}") {
  for (let i = 0; i < n; i++) expect((await app.post("stripe", body, { "content-type": "application/json" })).status).toBeLessThan(300);
}

describe("alert rule routes", () => {
  test("make, list, get, change and delete a rule; the file's is listed and read-only", async () => {
    await start();
    const made = await app.call("POST", "/v1/alerts", { name: "storm", kind: "rate", channels: ["stripe"], threshold: 3, window: "1m", notify: ["ops"] });
    expect(made.status).toBe(201);
    expect(made.json).toEqual({
      name: "storm",
      kind: "rate",
      channels: ["stripe"],
      threshold: 3,
      window: "1m",
      notify: ["ops"],
      source: "api",
      created_by: "api:test",
      created_at: expect.any(String),
      updated_by: "api:test",
      updated_at: expect.any(String),
    });
    const list = (await app.call("GET", "/v1/alerts")).json as any[];
    expect(list.map((r) => [r.name, r.source])).toEqual([
      ["stripe-quiet", "config"],
      ["storm", "api"],
    ]);
    expect(list[0]).toMatchObject({ for: "30m", created_by: null, created_at: null });
    expect((await app.call("GET", "/v1/alerts/storm")).json.window).toBe("1m");

    const changed = await app.call("PATCH", "/v1/alerts/storm", { threshold: 10, window: null, repeat: "1h" });
    expect(changed.json).toMatchObject({ code: 3, message: "invalid rule: window: a rate rule needs window", details: [] });
    const patched = await app.call("PATCH", "/ui/api/alerts/storm", { threshold: 10, repeat: "1h" }, app.admin);
    expect(patched.json).toMatchObject({ threshold: 10, repeat: "1h", window: "1m", created_by: "api:test", updated_by: "ada@example.com" });

    for (const [method, path, body] of [
      ["PATCH", "/v1/alerts/stripe-quiet", { for: "1h" }],
      ["DELETE", "/v1/alerts/stripe-quiet", undefined],
      ["POST", "/v1/alerts", { name: "stripe-quiet", kind: "rate", threshold: 1, window: "1m" }],
      ["POST", "/v1/alerts", { name: "storm", kind: "rate", threshold: 1, window: "1m" }],
    ] as const) {
      const r = await app.call(method, path, body);
      expect([r.status, r.json.code, r.json.details]).toEqual([409, 9, []]);
    }
    expect((await app.call("PATCH", "/v1/alerts/storm", { name: "other" })).status).toBe(400);
    expect((await app.call("GET", "/v1/alerts/nope")).status).toBe(404);
    expect((await app.call("PATCH", "/v1/alerts/nope", { threshold: 2 })).status).toBe(404);
    expect((await app.call("DELETE", "/v1/alerts/storm")).status).toBe(204);
    expect((await app.call("DELETE", "/v1/alerts/storm")).status).toBe(404);
    expect(((await app.call("GET", "/v1/alerts")).json as any[]).map((r) => r.name)).toEqual(["stripe-quiet"]);
  });

  test("a rule is refused with the words check-config says of the same entry in the file", async () => {
    await start();
    const bad = {
      name: "Bad Name",
      kind: "silence",
      for: "soon",
      schedule: "weekdays 8-20",
      notify: ["nobody"],
      query: "invoice OR",
      channel: ["stripe"],
    };
    let fileSays: string[] = [];
    try {
      buildConfig({ notifiers: [{ name: "ops", kind: "slack", url: "https://hooks.example/ops" }], alerts: [bad] });
    } catch (e) {
      fileSays = (e as ConfigError).problems.map((p) => `${p.path.replace(/^alerts\[0\]\./, "")}: ${p.message}`);
    }
    expect(fileSays.length).toBeGreaterThanOrEqual(5);
    const r = await app.call("POST", "/v1/alerts", bad);
    expect(r.status).toBe(400);
    expect(r.json.message).toBe(`invalid rule: ${fileSays.join("; ")}`);
    expect(r.json.message).toContain("unknown key (did you mean channels?)");
    expect(r.json.message).toContain('unknown notifier "nobody"');
    expect((await app.call("POST", "/v1/alerts", [1, 2])).status).toBe(400);
    expect((await app.call("GET", "/v1/alerts")).json).toHaveLength(1);
  });

  test("a rule takes effect without a restart: made, changed, deleted (its issue resolved, the notifiers told)", async () => {
    const rec = await start();
    await app.call("POST", "/v1/alerts", { name: "storm", kind: "rate", channels: ["stripe"], threshold: 3, window: "1m", notify: ["ops"] });
    await hooks(4);
    await app.runner.tick();
    expect((await issues()).map((i) => [i.rule, i.state, i.count])).toEqual([["storm", "open", 4]]);
    await app.call("PATCH", "/v1/alerts/storm", { threshold: 10 });
    await app.runner.tick();
    expect((await issues())[0].state).toBe("resolved");
    await app.call("PATCH", "/v1/alerts/storm", { threshold: 1 });
    await app.runner.tick();
    const open = (await issues()).filter((i) => i.state === "open");
    expect(open).toHaveLength(1);
    expect((await app.call("DELETE", "/ui/api/alerts/storm", undefined, app.admin)).status).toBe(204);
    const [last] = await issues();
    expect(last).toMatchObject({ id: open[0].id, state: "resolved" });
    expect(last.history.at(-1)).toMatchObject({ action: "resolved", by: "ada@example.com" });
    expect(rec.events()).toEqual(["opened storm stripe", "resolved storm stripe", "opened storm stripe", "resolved storm stripe"]);
    await hooks(5);
    await app.runner.tick();
    expect((await issues()).filter((i) => i.state === "open")).toEqual([]);
  });

  test("a rule's scope may be a search query: only the hooks it finds count", async () => {
    await start();
    const made = await app.call("POST", "/v1/alerts", { name: "big-orders", kind: "rate", query: "payload.size:big", threshold: 2, window: "5m" });
    expect(made.json.query).toBe("payload.size:big");
    await hooks(5, '{"size":"small"}');
    await hooks(2, '{"size":"big"}');
    await app.runner.tick();
    expect(await issues()).toEqual([]);
    await hooks(1, '{"size":"big"}');
    await app.runner.tick();
    const [issue] = await issues();
    expect(issue).toMatchObject({ rule: "big-orders", scope: "stripe", count: 3, summary: "3 hooks matching payload.size:big on stripe in 5m" });
    expect(issue.hooks_query).toBe("channel=stripe&q=payload.size%3Abig");
    const found = (await app.call("GET", `/v1/hooks?${issue.hooks_query}`)).json;
    expect(JSON.stringify(found)).not.toContain("small");
    expect(found.hooks ?? found).toHaveLength(3);
    const wrong = await app.call("POST", "/v1/alerts", { name: "x", kind: "handler", query: "payload.size:big" });
    expect(wrong.json.message).toBe("invalid rule: query: only silence, rate and new_event_type rules take a query");
  });

  test("a silence rule with a query: hooks it does not find keep it silent", async () => {
    await start();
    await app.call("POST", "/v1/alerts", { name: "no-invoices", kind: "silence", channels: ["stripe"], query: "payload.kind:invoice", for: "10m" });
    await hooks(1, '{"kind":"invoice"}');
    app.clock.advance(5 * 60_000);
    await hooks(3, '{"kind":"refund"}');
    app.clock.advance(5 * 60_000);
    await app.runner.tick();
    const [issue] = await issues();
    expect(issue).toMatchObject({ rule: "no-invoices", scope: "stripe", summary: "no hook matching payload.kind:invoice on stripe for 10m" });
    await hooks(1, '{"kind":"invoice"}');
    await app.runner.tick();
    expect((await issues())[0].state).toBe("resolved");
  });

  test("admins and full keys only: members 403 under /ui/api, no key 401", async () => {
    await start();
    const rule = { name: "quiet-2", kind: "silence", for: "1h" };
    expect((await app.call("GET", "/ui/api/alerts", undefined, app.member)).status).toBe(403);
    expect((await app.call("POST", "/ui/api/alerts", rule, app.member)).status).toBe(403);
    expect((await app.call("DELETE", "/ui/api/alerts/stripe-quiet", undefined, app.member)).status).toBe(403);
    expect((await app.call("POST", "/ui/api/alerts", rule, app.admin)).status).toBe(201);
    expect((await app.call("GET", "/ui/api/alerts", undefined, app.admin)).json).toHaveLength(2);
    expect((await app.call("GET", "/ui/api/alerts", undefined, ORIGIN)).status).toBe(401);
    expect((await app.call("GET", "/v1/alerts", undefined, {})).status).toBe(401);
  });
});
