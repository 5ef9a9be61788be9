/** What a sample event is made from: fresh ids and times on every send. */
export type Fresh = {
  /** Now, in ms. */
  now: number;
  /** Now in Unix seconds. */
  unix: number;
  /** Now as RFC 3339 (ISO 8601 UTC). */
  iso: string;
  /** A random id: `prefix` + `len` characters of [0-9A-Za-z]. */
  id(prefix?: string, len?: number): string;
  uuid(): string;
  /** A random integer below 10^digits. */
  number(digits?: number): number;
};

/** A sample event: its body (JSON value, or form fields), and the headers its provider sends with it. */
export type Sample =
  | { body: unknown; form?: false; headers?: Record<string, string> }
  | { body: Record<string, string>; form: true; headers?: Record<string, string> };

export type EventFactory = (f: Fresh) => Sample;
