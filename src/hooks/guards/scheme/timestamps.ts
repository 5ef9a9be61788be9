import type { TimestampFormat } from "./types";

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** A signed timestamp in ms since the epoch, or undefined when it is not written as `format` says. */
export function timestampMs(text: string, format: TimestampFormat): number | undefined {
  if (format === "unix") return /^\d{1,12}$/.test(text) ? Number(text) * 1000 : undefined;
  if (format === "unix-ms") return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
  if (!RFC3339.test(text)) return undefined;
  // Date.parse keeps milliseconds; finer digits do not matter against a tolerance in seconds.
  const ms = Date.parse(text.replace(/(\.\d{3})\d+/, "$1"));
  return Number.isNaN(ms) ? undefined : ms;
}

/** `now` written in `format`, as a signer sends it. */
export function formatTimestamp(nowMs: number, format: TimestampFormat): string {
  if (format === "unix") return String(Math.floor(nowMs / 1000));
  if (format === "unix-ms") return String(nowMs);
  return new Date(nowMs).toISOString().replace(/\.\d{3}Z$/, "Z");
}
