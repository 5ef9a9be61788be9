/**
 * A saved view's count (GET /v1/views?include=count, docs/views.md): exact up to 10,000 matches,
 * then 10,000 with `count_exact` false, whichever way the count is made (the database's COUNT for
 * hook terms, candidates checked for words).
 */
import { expect, test } from "bun:test";
import { monotonicFactory } from "ulid";
import type { NewHook } from "../../src/hooks/store";
import { createTestApp } from "../helpers/app";

test("a view's count is exact up to 10,000 and says there are more past it, for hook terms and words alike", async () => {
  const app = createTestApp();
  const next = monotonicFactory();
  const t0 = app.clock.now() - 86_400_000;
  let made = 0;
  const hooks = (n: number): NewHook[] =>
    Array.from({ length: n }, () => {
      const i = made++;
      return {
        id: next(t0 + i).toLowerCase(),
        channel: "bulk",
        method: "POST",
        query: "",
        headers: JSON.stringify({ "content-type": "application/json" }),
        body: new TextEncoder().encode(`{"note":"alpha ${i % 2 ? "odd" : "even"}"}`),
        ip: "10.0.0.1",
        createdAt: t0 + i,
        eventType: "",
        verified: null,
      };
    });
  const add = async (n: number) => {
    const batch = hooks(n);
    await app.storage.hooks.transaction(() => app.storage.hooks.insertHooks(batch, () => []));
    await app.search.sweep();
  };
  const views = ["channel:bulk", "alpha", "alpha status:pending", "odd", "is:unread alpha -odd", "status:pending -tag:none"];
  for (const [i, query] of views.entries()) expect((await app.call("POST", "/v1/views", { name: `v${i}`, query })).status).toBe(200);
  const counts = async () =>
    Object.fromEntries(
      ((await app.call("GET", "/v1/views?include=count")).json as { query: string; count: number; count_exact: boolean }[]).map((v) => [
        v.query,
        [v.count, v.count_exact],
      ]),
    );

  await add(10_000);
  expect(await counts()).toEqual({
    "channel:bulk": [10_000, true],
    alpha: [10_000, true],
    "alpha status:pending": [10_000, true],
    odd: [5000, true],
    "is:unread alpha -odd": [5000, true],
    "status:pending -tag:none": [10_000, true],
  });
  await add(1);
  expect(await counts()).toEqual({
    "channel:bulk": [10_000, false],
    alpha: [10_000, false],
    "alpha status:pending": [10_000, false],
    odd: [5000, true],
    "is:unread alpha -odd": [5001, true],
    "status:pending -tag:none": [10_000, false],
  });
}, 60_000);
