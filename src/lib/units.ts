/**
 * Durations and sizes as written in the config file.
 *
 * @example parseDuration("500ms") === 500; parseDuration("5m") === 300_000
 * @example parseSize("10MB") === 10 * 1024 * 1024; parseSize(2048) === 2048
 */
const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  kib: 1024,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

export const DURATION_PATTERN = "^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h|d)\\s*$";
export const SIZE_PATTERN = "^\\s*\\d+(\\.\\d+)?\\s*([kKmMgG]i?[bB]|[bB])?\\s*$";

/** Returns milliseconds, or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(text);
  if (!m) return undefined;
  return Math.round(Number(m[1]) * DURATION_UNITS[m[2]!]!);
}

/** Returns bytes (1 KB = 1024 bytes), or undefined when the value is not a size. */
export function parseSize(value: string | number): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? value : undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(value);
  if (!m) return undefined;
  const unit = SIZE_UNITS[(m[2] || "b").toLowerCase()];
  return unit === undefined ? undefined : Math.floor(Number(m[1]) * unit);
}
