import { describe, expect, test } from "bun:test";
import { buildConfig } from "../../src/load-config";
import { openDatabase } from "../../src/db/sqlite/open";
import { systemClock } from "../../src/lib/clock";
import { silentLog } from "../../src/lib/log";
import { createAttemptQueue } from "../../src/db/sqlite/attempt-queue";
import { createRunner } from "../../src/runner";
import { createFakeClock } from "../helpers/clock";

function runnerOnly(opts: { workerPollMs?: number; clock?: ReturnType<typeof createFakeClock> | typeof systemClock } = {}) {
  const config = buildConfig({ storage: { path: ":memory:" } });
  const db = openDatabase({ path: ":memory:", durability: "normal" });
  const clock = opts.clock ?? createFakeClock();
  const runner = createRunner({ config, queue: createAttemptQueue(db), clock, log: silentLog, workerPollMs: opts.workerPollMs });
  runner.bind({ async handled() {}, async failed() {} }, { raw: async () => undefined });
  return { runner, clock, close: () => db.$client.close() };
}

/** A worker that counts its calls; `next()` resolves at the next call. */
function countingWorker(nextDue: (now: number) => number | null) {
  const calls: number[] = [];
  let called: () => void = () => {};
  return {
    calls,
    next: () => new Promise<void>((resolve) => (called = resolve)),
    worker: {
      name: "counting",
      async tick(now: number) {
        calls.push(now);
        called();
        return nextDue(now);
      },
    },
  };
}

describe("workers", () => {
  test("tick() runs each worker once at the clock's time and waits for it", async () => {
    const clock = createFakeClock();
    const { runner, close } = runnerOnly({ clock });
    const w = countingWorker((now) => now + 60_000);
    runner.addWorker(w.worker);
    await runner.tick();
    clock.advance(5);
    await runner.tick();
    expect(w.calls).toEqual([clock.now() - 5, clock.now()]);
    close();
  });

  test("the loop runs a worker at start, then not before its next due time unless notify() says so", async () => {
    const { runner, close } = runnerOnly({ clock: systemClock, workerPollMs: 3_600_000 });
    const w = countingWorker((now) => now + 3_600_000);
    runner.addWorker(w.worker);
    let arrived = w.next();
    runner.start();
    await arrived;
    arrived = w.next();
    runner.notify();
    await arrived;
    await runner.stop();
    expect(w.calls).toHaveLength(2);
    close();
  });

  test("the loop calls a worker again when its next due time comes", async () => {
    const { runner, close } = runnerOnly({ clock: systemClock, workerPollMs: 3_600_000 });
    const w = countingWorker((now) => now + 10);
    runner.addWorker(w.worker);
    runner.start();
    await w.next();
    await w.next();
    await w.next();
    await runner.stop();
    expect(w.calls.length).toBeGreaterThanOrEqual(3);
    expect(w.calls[2]! - w.calls[1]!).toBeGreaterThanOrEqual(10);
    close();
  });

  test("a worker that throws is logged and called again; the loop lives on", async () => {
    const { runner, close } = runnerOnly({ clock: systemClock, workerPollMs: 10 });
    let n = 0;
    let third: () => void = () => {};
    const done = new Promise<void>((resolve) => (third = resolve));
    runner.addWorker({
      name: "throws",
      async tick() {
        if (++n === 3) third();
        throw new Error("boom");
      },
    });
    runner.start();
    await done;
    await runner.stop();
    expect(n).toBeGreaterThanOrEqual(3);
    close();
  });
});
