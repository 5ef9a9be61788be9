import { encodeTime, incrementBase32, ulid } from "ulid";
import type { Clock } from "./clock";

export const HOOK_ID_PATTERN = "^[0-7][0-9a-hjkmnp-tv-z]{25}$";

/**
 * Lowercase, monotonic ULIDs: ids sort by the time the hook was caught, even within one
 * millisecond. As the library's monotonicFactory makes them (a new random part each millisecond,
 * incremented within one, and the last time kept when the clock goes back), with the time part
 * encoded once per millisecond: the library's factory encoded it for every id, and it was 1.6 µs
 * of each caught hook (a profile under a flood, docs/benchmarks.md).
 */
export function createIdFactory(clock: Clock): () => string {
  // The library's own source asks the operating system for one byte per character (16 calls for
  // each new millisecond's random part); this one takes them from a pool filled 4 KiB at a time.
  const pool = new Uint8Array(4096);
  let taken = pool.length;
  const prng = () => {
    if (taken === pool.length) crypto.getRandomValues(pool), (taken = 0);
    return pool[taken++]! / 256;
  };
  let lastTime = Number.NEGATIVE_INFINITY;
  let timePart = "";
  /** The random part as the library increments it (upper case). */
  let random = "";
  return () => {
    const now = clock.now();
    if (now > lastTime) {
      const fresh = ulid(now, prng);
      lastTime = now;
      timePart = fresh.slice(0, 10).toLowerCase();
      random = fresh.slice(10);
    } else {
      random = incrementBase32(random);
    }
    return timePart + random.toLowerCase();
  };
}

/** Crockford's base 32 digit of each character code, either case (-1 for others). */
const DIGIT = (() => {
  const digits = new Int8Array(128).fill(-1);
  const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
  for (let i = 0; i < alphabet.length; i++) digits[alphabet.charCodeAt(i)] = digits[alphabet.toUpperCase().charCodeAt(i)] = i;
  return digits;
})();

/** The millisecond timestamp a ULID carries (NaN when its first ten characters are not base 32). */
export function ulidTime(id: string): number {
  let t = 0;
  for (let i = 0; i < 10; i++) {
    const d = DIGIT[id.charCodeAt(i)] ?? -1;
    if (d < 0) return Number.NaN;
    t = t * 32 + d;
  }
  return t;
}

/** The smallest lowercase ULID of the given millisecond: every id caught earlier sorts below it. */
export function ulidFloor(ms: number): string {
  return encodeTime(Math.max(0, Math.floor(ms)), 10).toLowerCase() + "0".repeat(16);
}
