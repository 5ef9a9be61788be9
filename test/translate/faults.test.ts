import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildConfig, type ConfigError } from "../../src/load-config";
import { ADMIN, basic, CUSTOMER, startTranslate, translateConfig } from "./setup";

// Faults of the translation API. Runs on every target (MAILROOM_TEST_TARGET).

type App = Awaited<ReturnType<typeof startTranslate>>;
const ORDER = { source_language: "en", target_languages: ["de"], text: "Hello there, world." };

/**
 * A client as a user writes one: on 429, 500 or 503 it waits what Retry-After says and sends
 * again, up to five times. The wait is handed in, so the test records it instead of sleeping.
 */
async function retryingClient(app: App, method: string, path: string, body: unknown, wait: (seconds: number) => void) {
  const seen: { status: number; retryAfter: string | null; code?: string }[] = [];
  for (;;) {
    const res = await app.customer(method, path, body);
    seen.push({ status: res.status, retryAfter: res.headers.get("retry-after"), code: res.json?.code });
    if (![429, 500, 503].includes(res.status) || seen.length === 5) return { seen, last: res };
    wait(Number(res.headers.get("retry-after") ?? "1"));
  }
}

describe("translation faults", () => {
  let app: App;
  beforeAll(async () => {
    app = await startTranslate({
      faults: [{ revision: "B", route: "POST /translate", error: 429, retry_after: "2s", count: 2 }],
    });
  });
  afterAll(() => app.stop());
  const admin = (method: string, body?: unknown) => app.admin(method, "/admin/v1/faults", body);

  test("a client retrying on 429 with Retry-After gets two 429s, then its order; one order is placed and paid once", async () => {
    const before = await app.money();
    const waits: number[] = [];
    const { seen, last } = await retryingClient(app, "POST", "/api/v1/translate", ORDER, (s) => waits.push(s));
    expect(seen.map((s) => s.status)).toEqual([429, 429, 200]);
    expect(seen.slice(0, 2)).toEqual([
      { status: 429, retryAfter: "2", code: "TOO_MANY_REQUESTS" },
      { status: 429, retryAfter: "2", code: "TOO_MANY_REQUESTS" },
    ]);
    expect(waits).toEqual([2, 2]);
    expect(last.json.orders.length).toBe(1);
    const orders = (await app.customer("GET", "/api/v1/orders")).json as unknown[];
    expect(orders.length).toBe(1);
    const after = await app.money();
    expect(after.balance + after.reserved).toBeCloseTo(before.balance + before.reserved, 2);
    expect(after.reserved - before.reserved).toBeCloseTo(last.json.orders[0].price, 2);
    expect(await app.consistent()).toBe(true);
    // The count is spent: the rule stays, with nothing left.
    expect((await admin("GET")).json.faults).toEqual([
      { revision: "B", route: "POST /translate", error: 429, retry_after: "2s", count: 2, remaining: 0, fired: 2 },
    ]);
  });

  test("the error body is the API's own; a faulted request changes nothing", async () => {
    await admin("PUT", {
      faults: [
        { route: "POST /translate", error: 500, count: 1 },
        { route: "DELETE /orders/{id}", error: 503, retry_after: "5s", count: 1 },
      ],
    });
    const money = await app.money();
    const orders = (await app.customer("GET", "/v1/orders")).json.length;
    const res = await app.customer("POST", "/v1/translate", ORDER);
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ code: "INTERNAL_ERROR", description: expect.any(String), parameters: {} });
    expect(res.headers.get("retry-after")).toBeNull();
    expect((await app.customer("GET", "/v1/orders")).json.length).toBe(orders);
    expect(await app.money()).toEqual(money);

    const placed = await app.customer("POST", "/v1/translate", ORDER);
    const id = placed.json.orders[0].id;
    const del = await app.customer("DELETE", `/api/v1/orders/${id}`);
    expect(del.status).toBe(503);
    expect(del.headers.get("retry-after")).toBe("5");
    expect(del.json.code).toBe("MAINTENANCE");
    expect((await app.customer("GET", `/api/v1/orders/${id}`)).json.status).toBe("QUEUE");
    expect((await app.customer("DELETE", `/api/v1/orders/${id}`)).status).toBe(204);
    expect(await app.consistent()).toBe(true);
  });

  test("by rate with a seed: the same requests fail, run after run", async () => {
    const rules = { faults: [{ revision: "A", route: "GET /account", error: 503, rate: 0.5, seed: 42 }] };
    const run = async () => {
      expect((await admin("PUT", rules)).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await app.customer("GET", "/v1/account")).status);
      return statuses;
    };
    const first = await run();
    expect(first).toContain(200);
    expect(first).toContain(503);
    expect(await run()).toEqual(first);
    // Revision B and other routes of A are untouched.
    for (let i = 0; i < 5; i++) expect((await app.customer("GET", "/api/v1/account")).status).toBe(200);
    expect((await app.customer("GET", "/v1/orders")).status).toBe(200);
    expect((await admin("GET")).json.faults[0].fired).toBe(first.filter((s) => s === 503).length);
  });

  test("latency delays the answer, which is otherwise unchanged", async () => {
    await admin("PUT", { faults: [{ route: "GET /rates", latency: "300ms" }] });
    const started = performance.now();
    const res = await app.customer("GET", "/api/v1/rates");
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.json)).toBe(true);
  });

  test("the gate still comes first: a bad key is 401 whatever the faults say", async () => {
    await admin("PUT", { faults: [{ error: 500 }] });
    expect((await app.call("GET", "/v1/account", undefined, basic("not-a-key"))).status).toBe(401);
    expect((await app.customer("GET", "/v1/account")).status).toBe(500);
    // The admin API is never faulted.
    expect((await admin("DELETE")).json).toEqual({ faults: [] });
    expect((await app.customer("GET", "/v1/account")).status).toBe(200);
  });

  test("bad rules are 400 INVALID_REQUEST naming the field; only administrators may set them", async () => {
    const bad = [
      [{ faults: [{ error: 404 }] }, "faults.0.error"],
      [{ faults: [{ error: 429, count: 1, rate: 0.5 }] }, "faults.0"],
      [{ faults: [{ latency: "2m" }] }, "faults.0.latency"],
      [{ faults: [{ route: "translate", error: 500 }] }, "faults.0.route"],
      [{ faults: [{ error: 500, retry_after: "1s" }] }, "faults.0.retry_after"],
      [{ faults: [{ error: 429, retry_after: "9999999999999999999h" }] }, "faults.0.retry_after"],
      [{ faults: [{ rate: 0.1 }] }, "faults.0"],
      [{ faults: [{ error: 500, sede: 1 }] }, "faults.0.sede"],
      [{ rules: [] }, "faults"],
    ] as const;
    for (const [body, field] of bad) {
      const res = await admin("PUT", body);
      expect({ body, status: res.status, code: res.json.code, field: res.json.parameters?.field }).toEqual({
        body,
        status: 400,
        code: "INVALID_REQUEST",
        field,
      });
    }
    expect((await app.call("PUT", "/admin/v1/faults", "{", { ...basic(ADMIN), "content-type": "application/json" })).json.code).toBe("INVALID_JSON");
    expect((await app.call("PUT", "/admin/v1/faults", { faults: [] }, basic(CUSTOMER))).status).toBe(403);
    const patch = await app.call("PATCH", "/admin/v1/faults", { faults: [] }, basic(ADMIN));
    expect(patch.status).toBe(405);
    expect(patch.headers.get("allow")).toBe("GET, PUT, DELETE");
    expect((await admin("GET")).json).toEqual({ faults: [] });
  });
});

test("[[translate.faults]] in the config file is checked like every other key", () => {
  const problems = (faults: unknown) => {
    try {
      buildConfig({ translate: translateConfig({ faults }) });
      return [];
    } catch (error) {
      return (error as ConfigError).problems.map((p) => p.path);
    }
  };
  expect(problems([{ revision: "A", route: "GET /orders/{id}", error: 503, retry_after: "3s", rate: 0.2, seed: 1, latency: "1s" }])).toEqual([]);
  expect(problems([{ error: 418 }])).toEqual(["translate.faults[0].error"]);
  expect(problems([{ revision: "C", error: 500 }])).toEqual(["translate.faults[0].revision"]);
  expect(problems([{ error: 500, seed: 3 }])).toEqual(["translate.faults[0].seed"]);
});
