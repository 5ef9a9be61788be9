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

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 date-time (section 5.6) in ms since the epoch, or undefined when it is not one:
 * the offset is required, and impossible dates and times (2026-02-30, 24:00, +24:00) are refused
 * rather than rolled over as Date.parse does. A leap second (:60), only at 23:59 UTC on a month's
 * last day, reads as the next second.
 *
 * @example parseRfc3339("2026-11-26T10:00:00.5+01:00") // Date.UTC(2026, 10, 26, 9, 0, 0, 500)
 */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 60) return undefined;
  let offset = 0;
  if (!m[8]) {
    const [oh, om] = [Number(m[10]), Number(m[11])];
    if (oh > 23 || om > 59) return undefined;
    offset = (m[9] === "-" ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  const fraction = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  // Set field by field: Date.UTC would map years 0-99 to 1900-1999.
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  const ms = at.setUTCHours(hour, minute, second, fraction) - offset;
  // A leap second is inserted at 23:59:60 UTC on the last day of a month only (in UTC: 23:59:60Z, or its local time with an offset).
  if (second === 60) {
    const before = new Date(ms - 1000);
    const lastOfMonth = new Date(ms).getUTCDate() === 1;
    if (before.getUTCHours() !== 23 || before.getUTCMinutes() !== 59 || !lastOfMonth) return undefined;
  }
  return ms;
}
