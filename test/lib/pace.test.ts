import { expect, test } from "bun:test";
import { restAfter } from "../../src/lib/pace";

test("after a slice, restAfter waits as long as the slice took", async () => {
  const asked: number[] = [];
  const setTimeout0 = globalThis.setTimeout;
  globalThis.setTimeout = ((fn: () => void, ms: number) => (asked.push(ms), setTimeout0(fn, 0))) as typeof setTimeout;
  try {
    await restAfter(performance.now() - 30); // a slice of 30 ms just ended
  } finally {
    globalThis.setTimeout = setTimeout0;
  }
  expect(asked).toHaveLength(1);
  expect(asked[0]!).toBeGreaterThanOrEqual(30);
  expect(asked[0]!).toBeLessThan(1000);
});

test("after a short slice it still gives the event loop a turn: work already waiting runs first", async () => {
  const order: string[] = [];
  setImmediate(() => order.push("other work")); // e.g. the writer's flush of a hook caught meanwhile
  await restAfter(performance.now()).then(() => order.push("rested"));
  expect(order).toEqual(["other work", "rested"]);
});
