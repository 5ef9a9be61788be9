import { describe, expect, test } from "bun:test";
import { ConfigError } from "../../src/config/problems";
import { buildConfig } from "../../src/load-config";
import { receivers } from "../runner/receiver";
import { createRunnerApp, forward } from "../runner/setup";

/**
 * Issue 30: delivery chaos towards the app. A local app records what it gets; with a seed the
 * actions (and what the app sees) are the same in every run; duplicates over 1,000 hooks are
 * within the binomial bounds; nothing is lost: every hook reaches the app and ends handled.
 */
const receiver = receivers();
const text = (b: Uint8Array) => new TextDecoder().decode(b);

function chaosApp(chaos: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const app = receiver();
  const t = createRunnerApp({
    handlers: [forward("app", app.url, { chaos, concurrency: 50, ...extra })],
    // A token guard: only what a guard verified is re-signed (the token is sent only where it matters).
    channels: [{ name: "c", handlers: ["app"], guards: extra.resign ? ["tok"] : [] }],
    guards: [{ name: "tok", kind: "token", secret: "catch-token", header: "x-catch-token" }],
  } as never);
  return { app, t };
}

/** Ticks (advancing the fake clock past each backoff) until every hook is handled or failed. */
async function settle(t: ReturnType<typeof createRunnerApp>, ids: string[]): Promise<void> {
  for (let round = 0; round < 20; round++) {
    await t.runner.tick();
    const pending = (await Promise.all(ids.map((id) => t.hook(id)))).filter((h) => h.status === "pending");
    if (pending.length === 0) return;
    t.clock.advance(60_000);
  }
  throw new Error("hooks still pending");
}

describe("delivery chaos", () => {
  test("duplicate = 0.2 over 1,000 hooks: the share is within the binomial bounds; each duplicate is the same delivery; nothing is lost", async () => {
    const { app, t } = chaosApp({ duplicate: 0.2, seed: 42 });
    const ids = await t.catchHooks("c", 1000);
    await settle(t, ids);
    const perHook = new Map<string, number>();
    for (const r of app.received) perHook.set(r.headers["x-mailroom-hook-id"]!, (perHook.get(r.headers["x-mailroom-hook-id"]!) ?? 0) + 1);
    expect(ids.every((id) => (perHook.get(id) ?? 0) >= 1)).toBe(true);
    const twice = [...perHook.values()].filter((n) => n === 2).length;
    expect([...perHook.values()].every((n) => n <= 2)).toBe(true);
    // n = 1000, p = 0.2: mean 200, standard deviation 12.6; 4.5 deviations either side.
    expect(twice).toBeGreaterThanOrEqual(143);
    expect(twice).toBeLessThanOrEqual(257);
    expect(app.received.length).toBe(1000 + twice);
    // The second delivery is the first one again: same headers, same body.
    const byHook = Map.groupBy(app.received, (r) => r.headers["x-mailroom-hook-id"]!);
    for (const [, got] of byHook) {
      if (got.length !== 2) continue;
      expect(got[1]!.headers).toEqual(got[0]!.headers);
      expect(text(got[1]!.body)).toBe(text(got[0]!.body));
    }
    const statuses = await Promise.all(ids.map(async (id) => (await t.hook(id)).status));
    expect(statuses.every((s) => s === "handled")).toBe(true);
    // Recorded on the attempt, one attempt per hook, and counted in the metrics.
    const marked = (await Promise.all(ids.map((id) => t.attempts(id)))).flat().filter((a) => a.chaos === "duplicate");
    expect(marked.length).toBe(twice);
    const metrics = (await t.call("GET", "/metrics")).text;
    expect(metrics).toContain(`mailroom_delivery_chaos_total{handler="app",action="duplicate"} ${twice}`);
  });

  test("the same seed and the same hooks give the same actions and the app the same sequence; another seed another one", async () => {
    const run = async (seed: number) => {
      const { app, t } = chaosApp({ duplicate: 0.3, reorder: "50ms", delay: "0-5ms", seed }, { concurrency: 10 });
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push(await t.send("c", `{"n":${i}}`));
      await settle(t, ids);
      const actions = await Promise.all(ids.map(async (id) => (await t.attempts(id)).map((a) => a.chaos)));
      return { sequence: app.received.map((r) => text(r.body)), actions };
    };
    const first = await run(7);
    const second = await run(7);
    expect(second).toEqual(first);
    // Shuffled, not as caught; some hooks twice.
    const once = [...new Set(first.sequence)];
    expect(once).not.toEqual(Array.from({ length: 10 }, (_, i) => `{"n":${i}}`));
    expect(first.sequence.length).toBeGreaterThan(10);
    expect(first.actions.flat().every((a) => typeof a === "string" && a.includes("reorder"))).toBe(true);
    const other = await run(8);
    expect(other.sequence).not.toEqual(first.sequence);
  });

  test("drop_first = 1: the app gets each hook, Mailroom acts as if it timed out and retries; the hook ends handled", async () => {
    const { app, t } = chaosApp({ drop_first: 1, seed: 1 });
    const id = await t.send("c", '{"n":1}');
    await t.runner.tick();
    expect(app.received).toHaveLength(1);
    let attempts = await t.attempts(id);
    expect(attempts[0]).toMatchObject({ attempt: 1, outcome: "failed", http_status: 200, chaos: "drop_first" });
    expect(attempts[0].error).toMatch(/chaos drop_first: the answer \(200\) was ignored, as if it timed out/);
    expect((await t.hook(id)).status).toBe("pending");
    await settle(t, [id]);
    expect(app.received).toHaveLength(2);
    expect(app.received[1]!.headers["x-mailroom-attempt"]).toBe("2");
    attempts = await t.attempts(id);
    expect(attempts[1]).toMatchObject({ attempt: 2, outcome: "succeeded", chaos: null });
    expect((await t.hook(id)).status).toBe("handled");
  });

  test("burst = 5: five hooks held and delivered at once; a delay is drawn from the range", async () => {
    const { app, t } = chaosApp({ burst: 5, delay: "20-40ms", seed: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await t.send("c", `{"n":${i}}`));
    await settle(t, ids);
    expect(app.received).toHaveLength(5);
    for (const id of ids) expect((await t.attempts(id))[0].chaos).toBe("burst,delay");
  });

  test("re-signing and chaos together: a duplicate carries the same signature and delivery id", async () => {
    const { app, t } = chaosApp({ duplicate: 1, seed: 5 }, { resign: { kind: "standard-webhooks", secret: "whsec_bG9jYWwga2V5" } });
    const id = await t.send("c", '{"n":1}', { "x-catch-token": "catch-token" });
    await settle(t, [id]);
    expect(app.received).toHaveLength(2);
    expect(app.received[1]!.headers["webhook-id"]).toBe(app.received[0]!.headers["webhook-id"]!);
    expect(app.received[1]!.headers["webhook-signature"]).toBe(app.received[0]!.headers["webhook-signature"]!);
    expect((await t.attempts(id))[0]).toMatchObject({ resigned: "standard-webhooks", chaos: "duplicate" });
    const metrics = (await t.call("GET", "/metrics")).text;
    expect(metrics).toContain(`mailroom_delivery_resigned_total{handler="app",kind="standard-webhooks"} 1`);
  });

  test("the config refuses chaos it cannot do, with the key path", () => {
    const problems = (chaos: Record<string, unknown>) => {
      try {
        buildConfig({ handlers: [forward("f", "http://127.0.0.1:9/", { chaos })] });
        return "";
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        return error.message;
      }
    };
    expect(problems({ duplicate: 1.5 })).toMatch(/handlers\[0\]\.chaos\.duplicate/);
    expect(problems({ delay: "500ms-0" })).toMatch(/handlers\[0\]\.chaos\.delay: must be a range such as "0-500ms"/);
    expect(problems({ reorder: "soon" })).toMatch(/handlers\[0\]\.chaos\.reorder: must be a duration/);
    expect(problems({ shuffle: true })).toMatch(/handlers\[0\]\.chaos/);
    expect(problems({ drop_first: 5 })).toMatch(/handlers\[0\]\.chaos\.drop_first: must be less than max_attempts \(5\)/);
    expect(problems({ duplicate: 0.2, reorder: "2s", delay: "0-500ms", drop_first: 1, burst: 3, seed: 42 })).toBe("");
  });
});
