/** The source of time for services and the runner; tests pass a fake one. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** RFC 3339 in UTC with `Z`, as every API of Mailroom writes timestamps. */
export function toRfc3339(ms: number): string {
  return new Date(ms).toISOString();
}
