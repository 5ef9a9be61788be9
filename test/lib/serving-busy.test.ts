/**
 * The flood watch (src/lib/serving-busy.ts): a background thread waits while hooks are caught
 * faster than the flood rate, goes on as soon as they slow down, never waits longer than
 * MAX_WAIT_MS, and never waits after a quiet moment. Time and sleep are the test's.
 */
import { expect, test } from "bun:test";
import { createFloodCounters, createFloodWatch, FLOOD_RATE, MAX_WAIT_MS } from "../../src/lib/serving-busy";

function setup(perSecond: () => number) {
  const counters = createFloodCounters();
  let clock = 0;
  const slept: number[] = [];
  const advance = (ms: number) => {
    counters.caught(Math.round((perSecond() * ms) / 1000));
    clock += ms;
  };
  const watch = createFloodWatch({ shared: counters.shared, now: () => clock, sleep: (ms) => (slept.push(ms), advance(ms)) });
  return { watch, advance, slept, counters };
}

test("below the flood rate nothing waits; a batch every 20 ms at half the rate goes on at once", () => {
  const { watch, advance, slept } = setup(() => FLOOD_RATE / 2);
  for (let i = 0; i < 50; i++) {
    expect(watch.wait()).toBe(0);
    advance(20);
  }
  expect(slept).toEqual([]);
});

test("during a flood the next batch waits until the rate falls below the flood rate, looking every 50 ms", () => {
  let rate = FLOOD_RATE * 3;
  let sleptMs = 0;
  // The flood stops once 300 ms have been slept through.
  const { watch, advance, slept } = setup(() => ((sleptMs += 50) > 300 ? (rate = 0) : rate));
  watch.wait();
  advance(60);
  sleptMs = 0;
  slept.length = 0;
  const waited = watch.wait();
  expect(slept.length).toBeGreaterThanOrEqual(6);
  expect(slept.every((ms) => ms === 50)).toBe(true);
  expect(waited).toBeGreaterThanOrEqual(300);
  expect(waited).toBeLessThan(450);
});

test("a flood that never ends makes a batch wait MAX_WAIT_MS at most", () => {
  const { watch, advance } = setup(() => FLOOD_RATE * 10);
  watch.wait();
  advance(60);
  const waited = watch.wait();
  expect(waited).toBeGreaterThanOrEqual(MAX_WAIT_MS);
  expect(waited).toBeLessThan(MAX_WAIT_MS + 100);
});

test("after a quiet moment the first batch goes on at once, even if a flood just began; the next one waits", () => {
  let rate = 0;
  const { watch, advance } = setup(() => rate);
  watch.wait();
  advance(5000);
  rate = FLOOD_RATE * 4;
  expect(watch.wait()).toBe(0);
  advance(60);
  expect(watch.wait()).toBeGreaterThan(0);
});

test("a search waiting for the background ends a wait at once, and none begins while it waits", () => {
  const { watch, advance, counters } = setup(() => FLOOD_RATE * 5);
  watch.wait();
  advance(60);
  counters.searching(+1);
  expect(watch.wait()).toBe(0);
  counters.searching(-1);
  expect(watch.wait()).toBeGreaterThan(0);
});

test("with the real clock and sleep: a search beginning to wait wakes a thread waiting through a flood", async () => {
  const counters = createFloodCounters();
  // A worker that waits through a flood the test keeps going, then says how long it waited.
  const worker = new Worker(
    URL.createObjectURL(
      new Blob(
        [
          `import { createFloodWatch } from ${JSON.stringify(new URL("../../src/lib/serving-busy.ts", import.meta.url).pathname)};
           self.onmessage = (e) => { const w = createFloodWatch({ shared: e.data }); w.wait(); postMessage("ready"); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100); postMessage(w.wait()); };`,
        ],
        { type: "application/javascript" },
      ),
    ),
  );
  const flood = setInterval(() => counters.caught(FLOOD_RATE), 20); // 50 times the flood rate
  const messages: unknown[] = [];
  const got = (n: number) => new Promise<void>((r) => (worker.onmessage = (e) => (messages.push(e.data), messages.length >= n && r())));
  const ready = got(1);
  worker.postMessage(counters.shared);
  await ready;
  const waited = got(2);
  await Bun.sleep(300);
  counters.searching(+1);
  await waited;
  clearInterval(flood);
  worker.terminate();
  // It waited through the flood (from 100 ms after "ready" to the search at 300) and not to MAX_WAIT_MS.
  expect(messages[1] as number).toBeGreaterThanOrEqual(150);
  expect(messages[1] as number).toBeLessThan(MAX_WAIT_MS - 1000);
});

test("a searches-waiting count gone below zero ends a wait at once instead of sleeping through it (a real sleep would spin)", () => {
  const { watch, advance, counters, slept } = setup(() => FLOOD_RATE * 5);
  watch.wait();
  advance(60);
  counters.searching(-1);
  slept.length = 0;
  expect(watch.wait()).toBe(0);
  expect(slept).toEqual([]);
});
