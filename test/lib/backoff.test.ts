import { describe, expect, test } from "bun:test";
import { backoffDelay, doublingDelay, nextDelay, parseRetryAfter, RETRY_AFTER_CAP } from "../../src/lib/backoff";

const policy = { initial: 1000, max: 60_000 };
const fixed = (r: number) => () => r;

describe("doublingDelay", () => {
  test("initial after no failure, doubling with each up to max, with no jitter", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => doublingDelay(n, policy))).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000]);
    expect(doublingDelay(-1, policy)).toBe(1000);
    expect(doublingDelay(100_000, policy)).toBe(60_000); // no overflow to Infinity/NaN
    expect(doublingDelay(100_000, { initial: 0, max: 1000 })).toBe(0);
  });
});

describe("backoffDelay", () => {
  test("the ceiling doubles from initial to max; the jitter draws between half the ceiling and the ceiling", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelay(n, policy, fixed(0.999999)))).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect([1, 2, 3, 4, 7].map((n) => backoffDelay(n, policy, fixed(0)))).toEqual([1000, 1000, 2000, 4000, 30000]);
    expect([2, 3, 7].map((n) => backoffDelay(n, policy, fixed(0.5)))).toEqual([1500, 3000, 45000]);
  });

  test("never below initial nor above max, whatever the random source gives", () => {
    for (let n = 1; n < 80; n++) {
      for (const r of [0, 0.25, 0.5, 0.75, 0.9999]) {
        const d = backoffDelay(n, policy, fixed(r));
        expect(d).toBeGreaterThanOrEqual(policy.initial);
        expect(d).toBeLessThanOrEqual(policy.max);
      }
    }
    expect(backoffDelay(5000, policy, fixed(0.5))).toBe(45000); // no overflow to Infinity/NaN
  });

  test("initial equal to max gives a fixed delay; a zero initial retries at once", () => {
    expect(backoffDelay(4, { initial: 500, max: 500 }, fixed(0.3))).toBe(500);
    expect(backoffDelay(3, { initial: 0, max: 1000 }, fixed(0.3))).toBe(0);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  test("delay-seconds", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
  });
  test("an HTTP date, relative to now; a past date means 0", () => {
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:05:00 GMT", now)).toBe(300_000);
    expect(parseRetryAfter(new Date(now + 90_000).toUTCString(), now)).toBe(90_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("Thursday, 01-Jan-26 00:01:00 GMT", now)).toBe(60_000);
  });
  test("absent or unreadable values are ignored; huge values are capped", () => {
    for (const v of [null, undefined, "", "soon", "-5", "1.5", "12abc", "2026-01-01"]) expect(parseRetryAfter(v, now)).toBeUndefined();
    expect(parseRetryAfter("99999999999", now)).toBe(RETRY_AFTER_CAP);
    expect(parseRetryAfter("Fri, 01 Jan 2100 00:00:00 GMT", now)).toBe(RETRY_AFTER_CAP);
  });
});

describe("nextDelay", () => {
  test("Retry-After replaces the backoff, even when shorter or longer", () => {
    expect(nextDelay(3, policy, 120_000, fixed(0.5))).toBe(120_000);
    expect(nextDelay(3, policy, 0, fixed(0.5))).toBe(0);
    expect(nextDelay(3, policy, undefined, fixed(0.5))).toBe(3000);
  });
});
