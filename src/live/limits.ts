import { AppError } from "../lib/errors";

/**
 * Streams one credential (an API key, a dashboard user) may hold open at once: a dashboard uses one
 * or two per tab, `mailroom tail` one, the test helper one per wait.
 */
export const MAX_STREAMS_PER_CREDENTIAL = 64;
/** Streams open at once in all. Each may hold up to MAX_UNREAD_BYTES unsent (live/stream.ts). */
export const MAX_STREAMS = 1024;
/** Seconds a refused client is told to wait (Retry-After): streams end when their readers leave. */
export const RETRY_AFTER_S = 5;

export type StreamLimits = { perCredential?: number; total?: number };

/**
 * Counts open streams per credential and in all. `admit` throws AppError "rate_limited" (HTTP 429,
 * gRPC 8, with Retry-After) when either limit is reached, else counts the stream and gives the
 * function that releases it (calling it again does nothing).
 *
 *   const release = counter.admit("api:ci"); ...; release();
 */
export function createStreamCounter(limits: StreamLimits = {}) {
  const perCredential = limits.perCredential ?? MAX_STREAMS_PER_CREDENTIAL;
  const total = limits.total ?? MAX_STREAMS;
  const open = new Map<string, number>();
  let all = 0;

  return {
    admit(credential: string): () => void {
      const mine = open.get(credential) ?? 0;
      if (mine >= perCredential) {
        throw new AppError(
          "rate_limited",
          `too many open streams: this credential has ${mine} open, the most one API key or dashboard user may hold; close one first`,
          { retryAfter: RETRY_AFTER_S },
        );
      }
      if (all >= total) {
        throw new AppError("rate_limited", `too many open streams: the server holds ${all}, its most; try again later`, { retryAfter: RETRY_AFTER_S });
      }
      open.set(credential, mine + 1);
      all++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        all--;
        const left = open.get(credential)! - 1;
        if (left === 0) open.delete(credential);
        else open.set(credential, left);
      };
    },
    /** Streams open in all. */
    count: () => all,
  };
}
