/**
 * A token bucket per key: `requests` tokens, refilled continuously over `perMs`. Time comes from
 * the caller (the injected clock), so tests need no sleeping.
 *
 * @example const limit = createRateLimiter(2, 1000); limit("k", 0); limit("k", 0); limit("k", 0) // => 500 (ms to wait)
 */
export function createRateLimiter(requests: number, perMs: number) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refillPerMs = requests / perMs;

  /** Takes one token; returns 0 when allowed, otherwise the milliseconds until a token is back. */
  return function take(key: string, now: number): number {
    if (requests <= 0) return 0;
    let bucket = buckets.get(key);
    if (!bucket) {
      // Anonymous callers are keyed by ip: forget full buckets before the map grows without bound.
      if (buckets.size >= 10_000) for (const [k, b] of buckets) if (b.tokens + (now - b.at) * refillPerMs >= requests) buckets.delete(k);
      bucket = { tokens: requests, at: now };
      buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(requests, bucket.tokens + Math.max(0, now - bucket.at) * refillPerMs);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / refillPerMs);
  };
}
