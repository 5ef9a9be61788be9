import { expect, test } from "bun:test";
import { parseRfc3339 } from "../../src/lib/clock";

test("RFC 3339 times read to the millisecond, with their offset", () => {
  expect(parseRfc3339("2026-11-26T10:00:00Z")).toBe(Date.UTC(2026, 10, 26, 10));
  expect(parseRfc3339("2026-11-26t10:00:00.5+01:00")).toBe(Date.UTC(2026, 10, 26, 9, 0, 0, 500));
  expect(parseRfc3339("2026-11-26 10:00:00.123456789-05:30")).toBe(Date.UTC(2026, 10, 26, 15, 30, 0, 123));
  expect(parseRfc3339("2024-02-29T00:00:00Z")).toBe(Date.UTC(2024, 1, 29));
  expect(parseRfc3339("2000-02-29T00:00:00Z")).toBe(Date.UTC(2000, 1, 29));
  // Years before 100 are not taken for 1900-1999; a leap second reads as the next second.
  expect(new Date(parseRfc3339("0050-01-01T00:00:00Z")!).toISOString()).toBe("0050-01-01T00:00:00.000Z");
  expect(parseRfc3339("2026-12-31T23:59:60Z")).toBe(Date.UTC(2027, 0, 1));
  expect(parseRfc3339("2016-06-30T23:59:60.5Z")).toBe(Date.UTC(2016, 6, 1, 0, 0, 0, 500));
  // The same leap second in a local time (RFC 3339 section 5.7's example).
  expect(parseRfc3339("1990-12-31T15:59:60-08:00")).toBe(Date.UTC(1991, 0, 1));
});

test("impossible dates, times and offsets, and times without an offset, are not RFC 3339 times", () => {
  for (const text of [
    "2026-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z",
    "2026-02-30T00:00:00Z",
    "2026-04-31T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-00-10T00:00:00Z",
    "2026-01-00T00:00:00Z",
    "2026-01-01T24:00:00Z",
    "2026-01-01T23:60:00Z",
    "2026-01-01T23:59:61Z",
    // A leap second anywhere but 23:59 UTC on a month's last day.
    "2026-11-26T10:00:60Z",
    "2026-12-30T23:59:60Z",
    "2026-12-31T23:59:60+01:00",
    "2026-01-01T00:00:00+24:00",
    "2026-01-01T00:00:00+01:60",
    "2026-01-01T00:00:00",
    "2026-01-01",
    "1795683600",
    "",
  ]) {
    expect({ text, ms: parseRfc3339(text) }).toEqual({ text, ms: undefined });
  }
});
