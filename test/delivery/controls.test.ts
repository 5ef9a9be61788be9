/** Delivery controls on SQLite, driven by the fake clock: a handler's rate, its circuit breaker, pause and resume (API and dashboard), a restart. */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildConfig, type ConfigError } from "../../src/load-config";
import { tempDir } from "../helpers/binary";
import { parseScrape, sample } from "../metrics/scrape";
import { receivers } from "../runner/receiver";
import { createRunnerApp, forward } from "../runner/setup";
import { dashboardApp } from "../dashboard/support";
import { AUTH } from "../helpers/client";
import { sseReader } from "../live/sse";

const receiver = receivers();
const opened: (() => void)[] = [];
afterEach(() => {
  while (opened.length) opened.pop()!();
});
const app = (raw: Parameters<typeof createRunnerApp>[0], opts: Parameters<typeof createRunnerApp>[1] = {}) => {
  const t = createRunnerApp(raw, opts);
  opened.push(() => t.close());
  return t;
};
const metrics = async (t: ReturnType<typeof app>) => parseScrape((await t.call("GET", "/metrics")).text);

describe("rate", () => {
  test('rate = "10/s": 100 hooks start one every 100 ms, over 9.9 s; every one waits its turn and is delivered', async () => {
    const target = receiver();
    const t = app({ handlers: [forward("app", target.url, { rate: "10/s" })], channels: [{ name: "c", handlers: ["app"] }] });
    const ids = await t.catchHooks("c", 100);
    const t0 = t.clock.now();
    for (let i = 0; i < 100; i++) {
      await t.runner.tick();
      expect(target.received).toHaveLength(i + 1); // one per turn, however many are due
      t.clock.advance(50);
      await t.runner.tick();
      expect(target.received).toHaveLength(i + 1); // half an interval later: still waiting
      t.clock.advance(50);
    }
    const started = (await Promise.all(ids.map(async (id) => (await t.attempts(id)).map((a) => Date.parse(a.started_at))))).flat().sort((a, b) => a - b);
    expect(started).toHaveLength(100);
    expect(started).toEqual(Array.from({ length: 100 }, (_, i) => t0 + 100 * i));
    const span = started.at(-1)! - started[0]!;
    expect(span).toBeGreaterThanOrEqual(9000);
    expect(span).toBeLessThanOrEqual(11_000);
    for (const id of ids) expect((await t.hook(id)).status).toBe("handled");
  });

  test('"5/2s" spaces starts by 400 ms; retries wait their turn too', async () => {
    const target = receiver({ status: 500 }, { status: 200 });
    const t = app({
      handlers: [forward("app", target.url, { rate: "5/2s", backoff: { initial: "100ms", max: "100ms" } })],
      channels: [{ name: "c", handlers: ["app"] }],
    });
    const [a, b] = await t.catchHooks("c", 2);
    await t.runner.tick(); // a fails, its retry is due in 100 ms (random 0.5: 3/4 of the ceiling, at least initial)
    t.clock.advance(100);
    await t.runner.tick();
    expect(target.received).toHaveLength(1); // b and a's retry wait for the next start, 400 ms after the first
    t.clock.advance(300);
    await t.runner.tick();
    expect(target.received).toHaveLength(2);
    t.clock.advance(400);
    await t.runner.tick();
    expect(target.received).toHaveLength(3);
    for (const id of [a!, b!]) expect((await t.hook(id)).status).toBe("handled");
  });

  test("the API shows each rate as the config writes it", async () => {
    const rates = { a: "10/s", b: "600/m", c: "5/10s", d: "2/1500ms", e: "3 / 1.5s", f: "1/h" };
    const t = app({
      handlers: Object.entries(rates).map(([name, rate]) => forward(name, "http://127.0.0.1:9/x", { rate })),
      channels: [{ name: "c", handlers: Object.keys(rates) }],
    });
    expect((await t.call("GET", "/v1/handlers")).json.map((h: any) => h.rate)).toEqual(["10/s", "600/m", "5/10s", "2/1500ms", "3/1500ms", "1/h"]);
  });

  test("check-config refuses a rate that is not one, saying what it must be", () => {
    for (const rate of ["fast", "0/s", "10/", "10 per s"]) {
      let problem: ConfigError | undefined;
      try {
        buildConfig({ handlers: [forward("app", "http://127.0.0.1:9/x", { rate })], channels: [{ name: "c", handlers: ["app"] }] }, {});
      } catch (error) {
        problem = error as ConfigError;
      }
      expect(problem?.message).toContain('must be a rate such as "10/s"');
    }
  });
});

describe("circuit breaker", () => {
  test("opens after N failures in a row, waits the cool-down, lets one attempt through, and closes on its success", async () => {
    const target = receiver({ status: 500 });
    const t = app({
      handlers: [
        forward("app", target.url, { concurrency: 1, max_attempts: 10, backoff: { initial: "1h", max: "1h" }, breaker: { failures: 3, cool_down: "10s" } }),
      ],
      channels: [{ name: "c", handlers: ["app"] }],
    });
    const stream = sseReader(await t.app.handle(new Request("http://localhost/v1/stream", { headers: AUTH })));
    const ids = await t.catchHooks("c", 6);
    const t0 = t.clock.now();
    await t.runner.tick();
    expect(target.received).toHaveLength(3); // the third failure opened it: the other three wait
    const third = (await t.attempts(ids[2]!))[0];
    expect(third.error).toBe("answered 500 Internal Server Error; 3 attempts failed in a row: the circuit breaker opened, attempts of app wait 10000 ms");
    let h = (await t.call("GET", "/v1/handlers/app")).json;
    expect(h).toMatchObject({
      name: "app",
      state: "breaker_open",
      waiting: 6,
      breaker: { state: "open", failures: 3, threshold: 3, cool_down: "10000ms", reopens_at: new Date(t0 + 10_000).toISOString() },
    });
    // The stream tells of it (issue 30): the handler, its failures in a row, when a trial goes through.
    const opened = await stream.next((e) => e.event.startsWith("handler.breaker"));
    expect([opened.event, JSON.parse(opened.data)]).toEqual([
      "handler.breaker_open",
      { handler: "app", state: "open", failures: 3, reopens_at: new Date(t0 + 10_000).toISOString() },
    ]);
    let m = await metrics(t);
    expect(sample(m, "mailroom_handler_breaker_transitions_total", { handler: "app", state: "open" })).toBe(1);
    expect(sample(m, "mailroom_handler_state", { handler: "app", state: "breaker_open" })).toBe(1);

    t.clock.advance(9999);
    await t.runner.tick();
    expect(target.received).toHaveLength(3);
    t.clock.advance(1); // half-open: one attempt, which fails: open again for another cool-down
    await t.runner.tick();
    expect(target.received).toHaveLength(4);
    h = (await t.call("GET", "/v1/handlers/app")).json;
    expect(h.state).toBe("breaker_open");
    expect(h.breaker.reopens_at).toBe(new Date(t0 + 20_000).toISOString());

    target.answer({ status: 200 });
    t.clock.advance(10_000); // the trial succeeds: closed, the last hook runs at once (the failed ones' retries are due in an hour)
    await t.runner.tick();
    expect(target.received).toHaveLength(6);
    h = (await t.call("GET", "/v1/handlers/app")).json;
    expect(h).toMatchObject({ state: "active", waiting: 4, breaker: { state: "closed", failures: 0, reopens_at: null } });
    const seen: string[] = [];
    for (let e = await stream.next((x) => x.event.startsWith("handler.breaker")); ; e = await stream.next((x) => x.event.startsWith("handler.breaker"))) {
      seen.push(e.event);
      if (e.event === "handler.breaker_closed") break;
    }
    expect(seen).toEqual(["handler.breaker_half_open", "handler.breaker_open", "handler.breaker_half_open", "handler.breaker_closed"]);
    stream.cancel();
    m = await metrics(t);
    expect(sample(m, "mailroom_handler_breaker_transitions_total", { handler: "app", state: "open" })).toBe(2);
    expect(sample(m, "mailroom_handler_breaker_transitions_total", { handler: "app", state: "half_open" })).toBe(2);
    expect(sample(m, "mailroom_handler_breaker_transitions_total", { handler: "app", state: "closed" })).toBe(1);
    expect(sample(m, "mailroom_handler_state", { handler: "app", state: "active" })).toBe(1);
  });

  test("off unless configured: failures in a row never hold the handler", async () => {
    const target = receiver({ status: 500 });
    const t = app({
      handlers: [forward("app", target.url, { concurrency: 1, backoff: { initial: "1h", max: "1h" } })],
      channels: [{ name: "c", handlers: ["app"] }],
    });
    await t.catchHooks("c", 20);
    await t.runner.tick();
    expect(target.received).toHaveLength(20);
    expect((await t.call("GET", "/v1/handlers/app")).json).toMatchObject({ state: "active", breaker: null, rate: null });
  });
});

describe("pause and resume", () => {
  test("a paused handler's attempts wait (new hooks queue theirs); resume delivers them all; the other handlers go on", async () => {
    const a = receiver();
    const b = receiver();
    const t = app({ handlers: [forward("a", a.url), forward("b", b.url)], channels: [{ name: "c", handlers: ["a", "b"] }] });
    let res = await t.call("POST", "/v1/handlers/a/pause");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ name: "a", kind: "forward", channels: ["c"], state: "paused", rate: null, breaker: null, waiting: 0 });
    const ids = await t.catchHooks("c", 3);
    await t.runner.tick();
    t.clock.advance(3_600_000);
    await t.runner.tick();
    expect(a.received).toHaveLength(0);
    expect(b.received).toHaveLength(3);
    for (const id of ids) expect((await t.hook(id)).status).toBe("pending");
    expect((await t.call("GET", "/v1/handlers")).json.map((h: any) => [h.name, h.state, h.waiting])).toEqual([
      ["a", "paused", 3],
      ["b", "active", 0],
    ]);
    expect(sample(await metrics(t), "mailroom_handler_state", { handler: "a", state: "paused" })).toBe(1);
    // Pausing again changes nothing.
    expect((await t.call("POST", "/v1/handlers/a/pause")).json.state).toBe("paused");

    res = await t.call("POST", "/v1/handlers/a/resume");
    expect(res.json).toMatchObject({ state: "active", waiting: 3 });
    await t.runner.tick();
    expect(a.received).toHaveLength(3);
    for (const id of ids) expect((await t.hook(id)).status).toBe("handled");
  });

  test("errors: 404 for an unknown handler, 400 for a bad name, 401 without a key, 400 for a body", async () => {
    const t = app({ handlers: [forward("a", "http://127.0.0.1:9/x")], channels: [{ name: "c", handlers: ["a"] }] });
    let res = await t.call("POST", "/v1/handlers/nope/pause");
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 5, message: 'handler "nope" not found', details: [] });
    res = await t.call("GET", "/v1/handlers/Bad%20Name");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe(3);
    for (const [method, path] of [
      ["GET", "/v1/handlers"],
      ["POST", "/v1/handlers/a/pause"],
    ]) {
      res = await t.call(method!, path!, undefined, {});
      expect(res.status).toBe(401);
      expect(res.json.code).toBe(16);
    }
    res = await t.call("POST", "/v1/handlers/a/pause", { x: 1 });
    expect(res.status).toBe(400);
    expect((await t.call("GET", "/v1/handlers/a")).json.state).toBe("active");
  });

  test("a restart (a new app on the same data file) keeps a paused handler paused; resume then drains what waited", async () => {
    const target = receiver();
    const dbPath = join(tempDir("mailroom-pause-"), "mailroom.db");
    const raw = { handlers: [forward("app", target.url)], channels: [{ name: "c", handlers: ["app"] }] };
    const first = createRunnerApp(raw, { dbPath });
    expect((await first.call("POST", "/v1/handlers/app/pause")).status).toBe(200);
    const ids = await first.catchHooks("c", 2);
    await first.runner.tick();
    await first.writer.drain();
    first.close();

    const second = app(raw, { dbPath });
    const more = await second.catchHooks("c", 1);
    await second.runner.tick();
    expect(target.received).toHaveLength(0);
    expect((await second.call("GET", "/v1/handlers/app")).json).toMatchObject({ state: "paused", waiting: 3 });
    await second.call("POST", "/v1/handlers/app/resume");
    await second.runner.tick();
    expect(target.received).toHaveLength(3);
    for (const id of [...ids, ...more]) expect((await second.hook(id)).status).toBe("handled");
  });

  test("the dashboard lists, pauses and resumes handlers (a forward added there too) behind its sessions; pausing is for admins", async () => {
    const target = receiver();
    const t = await dashboardApp({ handlers: [forward("conf", "http://127.0.0.1:9/x")], channels: [{ name: "c", handlers: ["conf"] }] });
    opened.push(() => t.close());
    expect((await t.call("POST", "/ui/api/channels/c/handlers", { name: "dash", url: target.url }, t.admin)).status).toBe(200);
    let res = await t.call("GET", "/ui/api/handlers", undefined, t.member);
    expect(res.status).toBe(200);
    expect(res.json.map((h: any) => [h.name, h.kind, h.channels, h.state])).toEqual([
      ["conf", "forward", ["c"], "active"],
      ["dash", "forward", ["c"], "active"],
    ]);
    expect((await t.call("GET", "/ui/api/handlers", undefined, {})).status).toBe(401);
    res = await t.call("POST", "/ui/api/handlers/dash/pause", undefined, t.member);
    expect(res.status).toBe(403);
    res = await t.call("POST", "/ui/api/handlers/dash/pause", undefined, t.admin);
    expect(res.json.state).toBe("paused");
    const [id] = await t.catchHooks("c", 1);
    await t.runner.tick();
    expect(target.received).toHaveLength(0);
    expect((await t.call("POST", "/ui/api/handlers/dash/resume", undefined, t.admin)).json.state).toBe("active");
    await t.runner.tick();
    expect(target.received).toHaveLength(1);
    expect((await t.call("GET", `/v1/hooks/${id}/attempts`)).json.find((a: any) => a.handler === "dash").outcome).toBe("succeeded");
  });

  test("handlers added in the dashboard share one metric label: their states are summed, never two samples of one series", async () => {
    const t = await dashboardApp({ handlers: [forward("conf", "http://127.0.0.1:9/x")], channels: [{ name: "c", handlers: ["conf"] }] });
    opened.push(() => t.close());
    for (const name of ["one", "two", "three"])
      expect((await t.call("POST", "/ui/api/channels/c/handlers", { name, url: "http://127.0.0.1:9/x" }, t.admin)).status).toBe(200);
    await t.call("POST", "/v1/handlers/three/pause");
    const text = (await t.call("GET", "/metrics")).text;
    const lines = text.split("\n").filter((l) => l.startsWith("mailroom_handler_state{"));
    expect(lines.sort()).toEqual([
      'mailroom_handler_state{handler="_other",state="active"} 2',
      'mailroom_handler_state{handler="_other",state="paused"} 1',
      'mailroom_handler_state{handler="conf",state="active"} 1',
    ]);
  });

  test("a forward added in the dashboard keeps rate and breaker, as a config file's handler does", async () => {
    const t = await dashboardApp({ channels: [{ name: "c" }] });
    opened.push(() => t.close());
    const body = { name: "dash", url: "http://127.0.0.1:9/x", rate: "5/2s", breaker: { failures: 3 } };
    const res = await t.call("POST", "/ui/api/channels/c/handlers", body, t.admin);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ rate: "5/2s", breaker: { failures: 3, cool_down: "30s" } });
    const listed = (await t.call("GET", "/ui/api/handlers", undefined, t.member)).json.find((h: { name: string }) => h.name === "dash");
    expect(listed).toMatchObject({ rate: "5/2s", breaker: { state: "closed", threshold: 3, cool_down: "30000ms" } });
  });
});

describe("default handlers", () => {
  test("GET /v1/handlers names the undeclared channels that [hooks] default_handlers handle, after a restart too", async () => {
    const target = receiver();
    const dir = tempDir("mailroom-default-handlers-");
    const dbPath = join(dir, "m.db");
    const raw = { handlers: [forward("app", target.url)], channels: [{ name: "declared", handlers: [] }], hooks: { default_handlers: ["app"] } };
    const t = app(raw, { dbPath });
    expect((await t.call("GET", "/v1/handlers")).json.map((h: any) => [h.name, h.channels])).toEqual([["app", []]]);
    await t.catchHooks("shop", 1);
    await t.catchHooks("declared", 1);
    await t.catchHooks("billing", 1);
    expect((await t.call("GET", "/v1/handlers")).json.map((h: any) => [h.name, [...h.channels].sort()])).toEqual([["app", ["billing", "shop"]]]);
    expect((await t.call("GET", "/v1/handlers/app")).json.channels.sort()).toEqual(["billing", "shop"]);
    t.close();
    opened.pop();
    const again = app(raw, { dbPath });
    expect((await again.call("GET", "/v1/handlers/app")).json.channels.sort()).toEqual(["billing", "shop"]);
  });
});
