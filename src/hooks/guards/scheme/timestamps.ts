import { parseRfc3339 } from "../../../lib/clock";
import type { TimestampFormat } from "./types";

/** A signed timestamp in ms since the epoch, or undefined when it is not written as `format` says. */
export function timestampMs(text: string, format: TimestampFormat): number | undefined {
  if (format === "unix") return /^\d{1,12}$/.test(text) ? Number(text) * 1000 : undefined;
  if (format === "unix-ms") return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
  return parseRfc3339(text);
}

/** `now` written in `format`, as a signer sends it. */
export function formatTimestamp(nowMs: number, format: TimestampFormat): string {
  if (format === "unix") return String(Math.floor(nowMs / 1000));
  if (format === "unix-ms") return String(nowMs);
  return new Date(nowMs).toISOString().replace(/\.\d{3}Z$/, "Z");
}
