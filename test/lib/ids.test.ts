/**
 * Hook ids (src/lib/ids.ts): lowercase ULIDs that sort in the order they were made, within one
 * millisecond, across milliseconds and when the clock goes back; their time is the clock's; and
 * ulidTime reads it back as the ulid library does.
 */
import { expect, test } from "bun:test";
import { decodeTime, isValid } from "ulid";
import { createIdFactory, HOOK_ID_PATTERN, ulidTime } from "../../src/lib/ids";

function factoryAt(times: number[]) {
  let i = 0;
  return createIdFactory({ now: () => times[Math.min(i++, times.length - 1)]! } as never);
}

test("ids made within one millisecond, then across milliseconds, sort in the order they were made and carry the clock's time", () => {
  const t = Date.UTC(2026, 10, 29, 6, 0, 0, 123);
  const times = [...Array(2000).fill(t), t + 1, t + 1, t + 5];
  const next = factoryAt(times);
  const ids = times.map(() => next());
  expect([...ids].sort()).toEqual(ids);
  expect(new Set(ids).size).toBe(ids.length);
  for (const [i, id] of ids.entries()) {
    expect(id).toMatch(new RegExp(HOOK_ID_PATTERN));
    expect(isValid(id.toUpperCase())).toBe(true);
    expect(ulidTime(id)).toBe(times[i]!);
    expect(decodeTime(id.toUpperCase())).toBe(times[i]!);
  }
  // A new millisecond starts a new random part, not the previous one incremented.
  expect(ids[2000]!.slice(10)).not.toBe(ids[1999]!.slice(10));
});

test("when the clock goes back, ids keep the last time and still increase", () => {
  const t = 1_800_000_000_000;
  const next = factoryAt([t, t - 1000, t - 1]);
  const ids = [next(), next(), next()];
  expect([...ids].sort()).toEqual(ids);
  expect(ids.map(ulidTime)).toEqual([t, t, t]);
});

test("ulidTime reads either case and answers NaN for what is not base 32", () => {
  const id = factoryAt([1_700_000_000_123])();
  expect(ulidTime(id.toUpperCase())).toBe(1_700_000_000_123);
  expect(ulidTime("0000000000")).toBe(0);
  expect(ulidTime("01hzzzzzzu")).toBeNaN(); // "u" is not a Crockford digit
  expect(ulidTime("short")).toBeNaN();
});
