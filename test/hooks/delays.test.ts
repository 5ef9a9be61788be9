import { expect, test } from "bun:test";
import { createDelays } from "../../src/hooks/delays";

/** Settles within the deadline, or says "waiting". */
const within = <T>(p: Promise<T>, ms: number): Promise<T | "waiting"> => Promise.race([p, new Promise<"waiting">((r) => setTimeout(() => r("waiting"), ms))]);

test("a cut ends long waits at the grace, those started after it too; a short wait keeps its own time", async () => {
  const delays = createDelays();
  const ended: string[] = [];
  const long = delays.wait(300_000).then(() => (ended.push("long"), "answered"));
  let shortDone = 0;
  const start = performance.now();
  const short = delays.wait(30).then(() => ((shortDone = performance.now() - start), ended.push("short")));
  expect(delays.pending).toBe(2);
  delays.cut(200);
  const later = delays.wait(300_000).then(() => "answered");
  expect(await within(long, 5_000)).toBe("answered");
  expect(await within(later, 1_000)).toBe("answered");
  await short;
  // The cut neither made it wait longer (it ended before the cut ones, however late the timers
  // fire on a busy machine) nor ended it early.
  expect(ended).toEqual(["short", "long"]);
  expect(shortDone).toBeGreaterThanOrEqual(29);
  expect(performance.now() - start).toBeGreaterThanOrEqual(199);
  expect(delays.pending).toBe(0);
});

test("without a cut a wait lasts its time: still waiting at a deadline beside one that ended", async () => {
  const delays = createDelays();
  const control = delays.wait(10).then(() => "answered");
  expect(await within(control, 1_000)).toBe("answered");
  const long = delays.wait(300_000).then(() => "answered");
  expect(await within(long, 50)).toBe("waiting");
  delays.cut(0);
  expect(await within(long, 1_000)).toBe("answered");
});
