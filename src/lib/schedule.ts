/**
 * A weekly schedule such as "mon-fri 08:00-20:00 Europe/Berlin" (an alert rule's `schedule`): the
 * days (a range or a list; every day when left out), a span of local time (it may pass midnight:
 * "22:00-06:00"), and an IANA time zone (UTC when left out). Local times are read with Intl in the
 * zone, so the span follows daylight saving time: 08:00 in Berlin is 07:00 UTC in winter, 06:00 in summer.
 */
export type Schedule = {
  readonly text: string;
  /** Whether the instant (ms since the epoch) falls within the schedule. */
  inside(at: number): boolean;
  /** When the stretch of the schedule that holds `at` began (ms); undefined when `at` is outside it. */
  openedAt(at: number): number | undefined;
};

const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const SPAN = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/;

/** Parses a schedule; throws Error saying what is wrong (check-config shows the message). */
export function parseSchedule(text: string): Schedule {
  const parts = text.trim().split(/\s+/);
  let days = new Set([0, 1, 2, 3, 4, 5, 6]);
  if (parts[0] && !SPAN.test(parts[0])) days = parseDays(parts.shift()!);
  const span = SPAN.exec(parts.shift() ?? "");
  if (!span) throw new Error('expected days, a span of time and a time zone, such as "mon-fri 08:00-20:00 Europe/Berlin"');
  const [sh, sm, eh, em] = span.slice(1).map(Number) as [number, number, number, number];
  if (sh > 24 || eh > 24 || sm > 59 || em > 59) throw new Error(`${span[0]} is not a span of times of day`);
  const start = sh * 60 + sm;
  const end = eh * 60 + em;
  if (start === end) throw new Error(`${span[0]} is an empty span`);
  const zone = parts.shift() ?? "UTC";
  if (parts.length > 0) throw new Error(`unexpected "${parts.join(" ")}" after the time zone`);
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  } catch {
    throw new Error(`unknown time zone "${zone}" (an IANA name such as Europe/Berlin)`);
  }
  const local = (at: number) => {
    const f = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
    return { day: DAYS.indexOf(String(f.weekday).toLowerCase()), minute: Number(f.hour) * 60 + Number(f.minute) };
  };
  const inside = (at: number) => {
    const { day, minute } = local(at);
    if (start < end) return days.has(day) && minute >= start && minute < end;
    // Past midnight: the stretch belongs to the day it started on.
    if (minute >= start) return days.has(day);
    return minute < end && days.has((day + 6) % 7);
  };
  return {
    text,
    inside,
    openedAt(at) {
      if (!inside(at)) return undefined;
      // Step back by minutes to the first instant inside (a stretch lasts at most a day).
      let t = at - (at % 60_000);
      while (inside(t - 60_000) && at - t < 86_400_000) t -= 60_000;
      return t;
    },
  };
}

function parseDays(text: string): Set<number> {
  const days = new Set<number>();
  for (const item of text.toLowerCase().split(",")) {
    const [from, to] = item.split("-");
    const a = DAYS.indexOf(from ?? "");
    const b = to === undefined ? a : DAYS.indexOf(to);
    if (a < 0 || b < 0) throw new Error(`"${item}" is not a day or a range of days (mon, tue, wed, thu, fri, sat, sun)`);
    for (let d = a; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === b) break;
    }
  }
  return days;
}
