import { encodeTime, monotonicFactory } from "ulid";
import type { Clock } from "./clock";

export const HOOK_ID_PATTERN = "^[0-7][0-9a-hjkmnp-tv-z]{25}$";

/** Lowercase, monotonic ULIDs: ids sort by the time the hook was caught, even within one millisecond. */
export function createIdFactory(clock: Clock): () => string {
  const next = monotonicFactory();
  return () => next(clock.now()).toLowerCase();
}

/** The millisecond timestamp a ULID carries. */
export function ulidTime(id: string): number {
  const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
  let t = 0;
  for (const ch of id.slice(0, 10)) t = t * 32 + alphabet.indexOf(ch);
  return t;
}

/** The smallest lowercase ULID of the given millisecond: every id caught earlier sorts below it. */
export function ulidFloor(ms: number): string {
  return encodeTime(Math.max(0, Math.floor(ms)), 10).toLowerCase() + "0".repeat(16);
}
