/**
 * Retry timing as small pure functions; the random source is injected so tests can pin it.
 *
 * @example backoffDelay(3, { initial: 1000, max: 600_000 }, () => 1) === 4000
 */
export type BackoffPolicy = { initial: number; max: number };

/** A Retry-After longer than this is taken as this: a bogus date must not park a hook for years. */
export const RETRY_AFTER_CAP = 24 * 3_600_000;

/**
 * The wait after `failures` failures in a row, without jitter: `initial` after none (the first
 * wait), doubling with each one up to `max`.
 *
 * @example [0, 1, 2, 3, 4].map((n) => doublingDelay(n, { initial: 2000, max: 30_000 })) // 2000, 4000, 8000, 16000, 30000
 */
export function doublingDelay(failures: number, policy: BackoffPolicy): number {
  return Math.min(policy.max, policy.initial * 2 ** Math.max(0, Math.min(failures, 52)));
}

/**
 * Delay before the attempt that follows failed try number `tries` (1-based, within the round).
 * The ceiling doubles from `initial` up to `max`; the delay is drawn between half the ceiling and
 * the ceiling ("equal jitter", so retries of many hooks spread out), and never below `initial`.
 */
export function backoffDelay(tries: number, policy: BackoffPolicy, random: () => number): number {
  const { initial, max } = policy;
  const ceiling = doublingDelay(tries - 1, policy);
  const drawn = ceiling / 2 + random() * (ceiling / 2);
  return Math.round(Math.min(max, Math.max(initial, drawn)));
}

/**
 * Milliseconds a Retry-After value asks to wait: delay-seconds or an HTTP date, relative to `now`.
 * Undefined when absent or unreadable; a date in the past means 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(RETRY_AFTER_CAP, Number(text) * 1000);
  // Only dates that look like HTTP dates: Date.parse accepts far too much ("1", "a 2").
  if (!/^[A-Za-z]{3},? /.test(text) && !/^[A-Za-z]+day, /.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(RETRY_AFTER_CAP, Math.max(0, at - now));
}

/** The delay before the next attempt: the receiver's Retry-After when it sent one, else the backoff. */
export function nextDelay(tries: number, policy: BackoffPolicy, retryAfter: number | undefined, random: () => number): number {
  return retryAfter ?? backoffDelay(tries, policy, random);
}
