import { afterEach, expect, test } from "bun:test";
import type { AttemptResult, Handler } from "../../src/runner/handlers";
import { SETTLE_BATCH } from "../../src/runner/attempts";
import { createRunnerApp } from "./setup";

/**
 * Results that arrive together (one relay acknowledgement carries many hooks) settle in few
 * transactions: each attempt's outcome and its hook's status still commit together.
 */
let close: (() => void) | undefined;
afterEach(() => close?.());

/** A handler whose attempts all end at once, once `n` have started: what one acknowledgement of n hooks does. */
function together(n: number, result: AttemptResult = { ok: true, excerpt: "acknowledged", error: "" }): Handler {
  const waiting: ((r: AttemptResult) => void)[] = [];
  return {
    name: "relay:laptop:c",
    kind: "relay",
    policy: { maxAttempts: 3, backoff: { initial: 1_000, max: 60_000 }, concurrency: 256, timeout: 0 },
    run: () =>
      new Promise<AttemptResult>((resolve) => {
        waiting.push(resolve);
        if (waiting.length === n) for (const r of waiting.splice(0)) r(result);
      }),
  };
}

async function setUp(n: number, handler: Handler) {
  const t = createRunnerApp({ handlers: [], channels: [{ name: "c", handlers: [] }] });
  close = t.close;
  t.runner.attach("c", handler);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await t.send("c", `{"n":${i}}`));
  // Every transaction the settlement opens (claims open theirs inside the queue, not through this).
  const queue = t.storage.attempts;
  const open = queue.transaction;
  const counted = { transactions: 0, failNext: 0 };
  queue.transaction = ((fn: () => Promise<unknown>) => {
    counted.transactions++;
    if (counted.failNext > 0) return (counted.failNext--, Promise.reject(new Error("database is locked")));
    return open(fn);
  }) as typeof queue.transaction;
  return { t, ids, counted };
}

test("an acknowledgement of N hooks settles their N attempts in one transaction; each hook is handled", async () => {
  const n = 40;
  const { t, ids, counted } = await setUp(n, together(n));
  await t.runner.tick();
  expect(counted.transactions).toBe(1);
  for (const id of ids) {
    expect((await t.hook(id)).status).toBe("handled");
    const attempts = await t.attempts(id);
    expect(attempts.map((a) => [a.handler, a.outcome, a.excerpt])).toEqual([["relay:laptop:c", "succeeded", "acknowledged"]]);
  }
});

test(`more than ${SETTLE_BATCH} results at once settle ${SETTLE_BATCH} per transaction, each batch taking its own turn`, async () => {
  const n = 2 * SETTLE_BATCH + 10;
  const { t, ids, counted } = await setUp(n, together(n));
  await t.runner.tick();
  expect(counted.transactions).toBe(3);
  const statuses = await Promise.all(ids.map(async (id) => (await t.hook(id)).status));
  expect(statuses.every((s) => s === "handled")).toBe(true);
});

test("a batch whose transaction fails is settled again one result per transaction: nothing is lost, failures queue their retry", async () => {
  const n = 5;
  const { t, ids, counted } = await setUp(n, together(n, { ok: false, excerpt: "", error: "the listener could not store it" }));
  counted.failNext = 1;
  await t.runner.tick();
  expect(counted.transactions).toBe(1 + n);
  for (const id of ids) {
    expect((await t.hook(id)).status).toBe("pending");
    expect((await t.attempts(id)).map((a) => [a.attempt, a.outcome])).toEqual([
      [1, "failed"],
      [2, "queued"],
    ]);
  }
});
