import { describe, expect, test } from "bun:test";
import { AUTH, createTestApp, type TestApp } from "../helpers/app";
import { buildConfig, type ConfigError } from "../../src/load-config";
import { splitListen } from "../../src/config/schema";
import { parseScrape, sample } from "./scrape";

async function scrape(t: TestApp) {
  const res = await t.call("GET", "/metrics");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return parseScrape(res.text);
}

const command = (name: string, argv: string[], extra: Record<string, unknown> = {}) => ({
  name,
  kind: "command",
  argv,
  backoff: { initial: "1s", max: "10s" },
  ...extra,
});

describe("GET /metrics", () => {
  test("parses as the Prometheus text format and has every documented metric", async () => {
    const t = createTestApp();
    const m = await scrape(t);
    for (const name of [
      "mailroom_build_info",
      "mailroom_hooks_caught_total",
      "mailroom_hooks_refused_total",
      "mailroom_hooks",
      "mailroom_handler_attempts_total",
      "mailroom_handler_queue_depth",
      "mailroom_handler_breaker_transitions_total",
      "mailroom_handler_state",
      "mailroom_catch_duration_seconds",
      "mailroom_commit_batch_size",
      "mailroom_translate_requests_total",
      "mailroom_database_bytes",
      "mailroom_wal_bytes",
      "mailroom_metrics_channels_labelled",
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "process_heap_bytes",
      "process_start_time_seconds",
    ])
      expect(m.has(name)).toBe(true);
    expect(m.get("mailroom_catch_duration_seconds")!.type).toBe("HISTOGRAM");
    expect(sample(m, "mailroom_build_info", { version: "0.1.0", bun: Bun.version })).toBe(1);
    expect(sample(m, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(sample(m, "mailroom_database_bytes")).toBeGreaterThan(0);
  });

  test("hooks of one batch are counted by channel and event type, whatever their order", async () => {
    const t = createTestApp();
    const sent: [string, string][] = [
      ["a", "x"],
      ["a", "x"],
      ["b", "x"],
      ["a", "y"],
      ["a", "x"],
      ["b", "y"],
      ["b", "y"],
    ];
    // Sent at once: one group commit holds them all, runs of one channel and type mixed.
    const answers = await Promise.all(
      sent.map(([channel, type]) => t.app.handle(new Request(`http://localhost/?channel=${channel}`, { method: "POST", body: JSON.stringify({ type }) }))),
    );
    expect(answers.map((r) => r.status)).toEqual(sent.map(() => 200));
    const m = await scrape(t);
    expect(sample(m, "mailroom_hooks_caught_total", { channel: "a" })).toBe(4);
    expect(sample(m, "mailroom_hooks_caught_total", { channel: "b" })).toBe(3);
    for (const [channel, type, n] of [
      ["a", "x", 3],
      ["a", "y", 1],
      ["b", "x", 1],
      ["b", "y", 2],
    ] as const) {
      expect(sample(m, "mailroom_hooks_caught_by_event_type_total", { channel, event_type: type })).toBe(n);
    }
    // One batch of 7: the runs were counted within it.
    expect(m.get("mailroom_commit_batch_size")!.metrics).toMatchObject([{ count: "1", sum: "7" }]);
  });

  test("needs a management API token: 401 with the error body and WWW-Authenticate without one", async () => {
    const t = createTestApp();
    for (const headers of [{}, { authorization: "Bearer wrong-token-123" }] as Record<string, string>[]) {
      const res = await t.call("GET", "/metrics", undefined, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      expect(res.json).toEqual({ code: 16, message: expect.any(String), details: [] });
      expect(res.text).not.toContain("mailroom_");
    }
  });

  test("bad requests get the error body: a query parameter (400), another method (405)", async () => {
    const t = createTestApp();
    const query = await t.call("GET", "/metrics?name=x");
    expect(query.status).toBe(400);
    expect(query.json).toMatchObject({ code: 3, details: [] });
    const post = await t.call("POST", "/metrics", {});
    expect(post.status).toBe(405);
    expect(post.json).toMatchObject({ code: 12, details: [] });
  });

  test("[metrics] auth = false opens it; enabled = false removes it", async () => {
    const open = createTestApp({ metrics: { auth: false } });
    const res = await open.call("GET", "/metrics", undefined, {});
    expect(res.status).toBe(200);
    parseScrape(res.text);
    const off = createTestApp({ metrics: { enabled: false } });
    expect((await off.call("GET", "/metrics")).status).toBe(404);
  });

  test("[metrics] listen moves it off the main listener, with the same auth", async () => {
    const t = createTestApp({ metrics: { listen: "127.0.0.1:0" } });
    expect((await t.call("GET", "/metrics")).status).toBe(404);
    const own = t.metricsApp!;
    expect((await own.handle(new Request("http://localhost/metrics"))).status).toBe(401);
    const res = await own.handle(new Request("http://localhost/metrics", { headers: AUTH }));
    expect(res.status).toBe(200);
    parseScrape(await res.text());
  });

  test("a relay key gets 403 on [metrics] listen too, with or without metrics auth", async () => {
    const relay = { headers: { authorization: "Bearer relay-metrics-token-01" } };
    for (const auth of [true, false]) {
      const t = createTestApp({
        metrics: { listen: "127.0.0.1:0", auth },
        api_keys: [
          { label: "test", token: "test-token-0123456789" },
          { label: "laptop", token: "relay-metrics-token-01", scopes: ["relay"], channels: ["stripe"] },
        ],
      });
      const res = await t.metricsApp!.handle(new Request("http://localhost/metrics", relay));
      expect([auth, res.status, ((await res.json()) as { code: number }).code]).toEqual([auth, 403, 7]);
      t.close();
    }
  });

  test("caught hooks move the caught counter, the batch size, the catch duration and the stats gauge", async () => {
    const t = createTestApp();
    const before = await scrape(t);
    expect(sample(before, "mailroom_hooks_caught_total", { channel: "orders" })).toBe(0);
    await t.catchHooks("orders", 5);
    const after = await scrape(t);
    expect(sample(after, "mailroom_hooks_caught_total", { channel: "orders" })).toBe(5);
    expect(sample(after, "mailroom_hooks", { channel: "orders", status: "pending" })).toBe(5);
    const duration = after.get("mailroom_catch_duration_seconds")!.metrics[0]!;
    expect(Number(duration.count)).toBe(5);
    const batches = after.get("mailroom_commit_batch_size")!.metrics[0]!;
    expect(Number(batches.sum)).toBe(5);

    const [id] = await t.catchHooks("orders", 1);
    expect((await t.call("POST", `/v1/hooks/${id}/discard`)).status).toBe(200);
    const later = await scrape(t);
    expect(sample(later, "mailroom_hooks", { channel: "orders", status: "pending" })).toBe(5);
    expect(sample(later, "mailroom_hooks", { channel: "orders", status: "discarded" })).toBe(1);
  });

  test("a guard's refusal moves the refused counter by channel and guard, not the caught one", async () => {
    const t = createTestApp({
      guards: [{ name: "post-only", kind: "method", allow: ["POST"] }],
      channels: [{ name: "forms", guards: ["post-only"] }],
    });
    const res = await t.app.handle(new Request("http://localhost/?channel=forms", { method: "PUT", body: "x" }));
    expect(res.status).toBe(405);
    const m = await scrape(t);
    expect(sample(m, "mailroom_hooks_refused_total", { channel: "forms", guard: "post-only" })).toBe(1);
    expect(sample(m, "mailroom_hooks_caught_total", { channel: "forms" })).toBe(0);
  });

  test("handler attempts move the attempts counter by outcome, and the queue depth follows the queue", async () => {
    const t = createTestApp({
      handlers: [command("ok", ["true"]), command("flaky", ["false"], { max_attempts: 2 })],
      channels: [{ name: "jobs", handlers: ["ok", "flaky"] }],
    });
    await t.catchHooks("jobs", 1);
    expect(sample(await scrape(t), "mailroom_handler_queue_depth")).toBe(2);
    await t.runner.tick();
    let m = await scrape(t);
    expect(sample(m, "mailroom_handler_attempts_total", { handler: "ok", outcome: "succeeded" })).toBe(1);
    expect(sample(m, "mailroom_handler_attempts_total", { handler: "flaky", outcome: "failed" })).toBe(1);
    expect(sample(m, "mailroom_handler_queue_depth")).toBe(1); // flaky's second attempt, due later
    t.clock.advance(60_000);
    await t.runner.tick();
    m = await scrape(t);
    expect(sample(m, "mailroom_handler_attempts_total", { handler: "flaky", outcome: "gave_up" })).toBe(1);
    expect(sample(m, "mailroom_handler_queue_depth")).toBe(0);
    expect(sample(m, "mailroom_hooks", { channel: "jobs", status: "failed" })).toBe(1);
  });

  test("translation requests are counted by revision, route pattern and status, refusals of the gate too", async () => {
    const t = createTestApp();
    expect((await t.call("GET", "/api/v1/rates", undefined, {})).status).toBe(200);
    expect((await t.call("GET", "/v1/rates", undefined, {})).status).toBe(200);
    expect((await t.call("GET", "/api/v1/orders/1", undefined, {})).status).toBe(401);
    const m = await scrape(t);
    expect(sample(m, "mailroom_translate_requests_total", { revision: "B", route: "/api/v1/rates", status: "200" })).toBe(1);
    expect(sample(m, "mailroom_translate_requests_total", { revision: "A", route: "/v1/rates", status: "200" })).toBe(1);
    expect(sample(m, "mailroom_translate_requests_total", { revision: "B", route: "_gate", status: "401" })).toBe(1);
  });
});

describe("[metrics] config", () => {
  test("listen must be host:port with a real port; channel_labels a bounded integer; unknown keys refused", () => {
    const problems = (metrics: Record<string, unknown>) => {
      try {
        buildConfig({ metrics });
        return [];
      } catch (error) {
        return (error as ConfigError).problems.map((p) => `${p.path}: ${p.message}`);
      }
    };
    expect(problems({ listen: "9464" })).toEqual(['metrics.listen: must be "host:port", such as "127.0.0.1:9464"']);
    expect(problems({ listen: "127.0.0.1:65536" })).toHaveLength(1);
    expect(problems({ channel_labels: -1 })).toHaveLength(1);
    expect(problems({ auth: "no" })).toHaveLength(1);
    expect(problems({ public: true })).toEqual(["metrics.public: unknown key"]);
    expect(problems({ listen: "[::1]:9464", channel_labels: 0, auth: false })).toEqual([]);
    expect(splitListen("[::1]:9464")).toEqual({ host: "::1", port: 9464 });
    expect(splitListen("0.0.0.0:0")).toEqual({ host: "0.0.0.0", port: 0 });
  });
});
