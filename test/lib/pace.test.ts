import { expect, test } from "bun:test";
import { restAfter } from "../../src/lib/pace";

test("after a slice, restAfter waits as long as the slice took", async () => {
  const startedAt = performance.now() - 30; // a slice of 30 ms just ended
  const t0 = performance.now();
  await restAfter(startedAt);
  expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
});

test("after a short slice it still gives the event loop a turn: work already waiting runs first", async () => {
  const order: string[] = [];
  setImmediate(() => order.push("other work")); // e.g. the writer's flush of a hook caught meanwhile
  await restAfter(performance.now()).then(() => order.push("rested"));
  expect(order).toEqual(["other work", "rested"]);
});
