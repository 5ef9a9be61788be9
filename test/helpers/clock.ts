import type { Clock } from "../../src/lib/clock";

export type FakeClock = Clock & { advance(ms: number): void; set(ms: number): void };

/** A clock that moves only when told to. */
export function createFakeClock(start = Date.parse("2026-01-01T00:00:00Z")): FakeClock {
  let now = start;
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
    set(ms) {
      now = ms;
    },
  };
}
