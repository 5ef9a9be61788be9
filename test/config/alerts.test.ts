/** `[[alerts]]`: checked and converted once at load, every problem named with its key path. */
import { describe, expect, test } from "bun:test";
import { buildConfig, ConfigError } from "../../src/load-config";
import { parseSchedule } from "../../src/lib/schedule";

function problems(raw: Record<string, unknown>): string[] {
  try {
    buildConfig(raw);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems.map((p) => `${p.path}: ${p.message}`);
    throw e;
  }
  return [];
}

describe("[[alerts]]", () => {
  test("durations become milliseconds; channels default to every channel", () => {
    const c = buildConfig({ alerts: [{ name: "quiet", kind: "silence", for: "30m", repeat: "2h", schedule: "mon-fri 08:00-20:00 Europe/Berlin" }] });
    expect(c.alerts[0]).toMatchObject({ name: "quiet", channels: ["*"], for: 1_800_000, repeat: 7_200_000, notify: [] });
  });

  test("an unknown kind, a key the kind needs, a bad schedule or zone, an unknown reason, a duplicate name", () => {
    expect(
      problems({
        alerts: [
          { name: "a", kind: "silense" },
          { name: "b", kind: "silence" },
          { name: "c", kind: "rate", threshold: 3 },
          { name: "d", kind: "silence", for: "5m", schedule: "weekdays 8-20" },
          { name: "e", kind: "silence", for: "5m", schedule: "mon-fri 08:00-20:00 Europe/Atlantis" },
          { name: "f", kind: "refusals", threshold: 1, window: "1m", reasons: ["signature", "timeout"] },
          { name: "f", kind: "handler", for: "soon" },
        ],
      }),
    ).toEqual([
      'alerts[6].for: must be a duration such as "30m"',
      'alerts[0].kind: unknown kind "silense" (one of silence, refusals, handler, new_event_type, rate, relay)',
      "alerts[1].for: a silence rule needs for",
      "alerts[2].window: a rate rule needs window",
      'alerts[3].schedule: "weekdays" is not a day or a range of days (mon, tue, wed, thu, fri, sat, sun)',
      'alerts[4].schedule: unknown time zone "Europe/Atlantis" (an IANA name such as Europe/Berlin)',
      'alerts[5].reasons[1]: unknown reason "timeout" (one of signature, guard, size, paused)',
      'alerts[6].name: duplicate name "f"',
    ]);
  });

  test("a query parses (the character at fault said), on silence, rate and new_event_type only, not with event_types", () => {
    expect(
      problems({
        alerts: [
          { name: "a", kind: "rate", threshold: 1, window: "1m", query: "invoice OR" },
          { name: "b", kind: "refusals", threshold: 1, window: "1m", query: "event:x" },
          { name: "c", kind: "silence", for: "1m", query: "event:x", event_types: ["x"] },
          { name: "d", kind: "silence", for: "1m", query: "event:invoice.* payload.livemode:true" },
        ],
      }),
    ).toEqual([
      "alerts[0].query: does not parse at character 11: expected a term, found the end of the query",
      "alerts[1].query: only silence, rate and new_event_type rules take a query",
      "alerts[2].query: give either query or event_types, not both",
    ]);
  });

  test("notify names notifiers of [[notifiers]]", () => {
    expect(problems({ alerts: [{ name: "a", kind: "new_event_type", notify: ["ops"] }] })).toEqual([
      'alerts[0].notify[0]: unknown notifier "ops" (not in [[notifiers]])',
    ]);
    const withNotifiers = problems({
      notifiers: [{ name: "slack", kind: "slack", url: "https://hooks.example/x" }],
      alerts: [{ name: "a", kind: "new_event_type", notify: ["slack", "ops"] }],
    });
    expect(withNotifiers).toContain('alerts[0].notify[1]: unknown notifier "ops" (not in [[notifiers]])');
  });
});

describe("schedules", () => {
  const berlin = parseSchedule("mon-fri 08:00-20:00 Europe/Berlin");
  test("local hours follow daylight saving time", () => {
    expect(berlin.inside(Date.parse("2026-03-27T06:59:00Z"))).toBe(false); // Fri 07:59 CET
    expect(berlin.inside(Date.parse("2026-03-27T07:00:00Z"))).toBe(true); // Fri 08:00 CET
    expect(berlin.inside(Date.parse("2026-03-28T10:00:00Z"))).toBe(false); // Saturday
    expect(berlin.inside(Date.parse("2026-03-30T06:00:00Z"))).toBe(true); // Mon 08:00 CEST
    expect(berlin.inside(Date.parse("2026-03-30T18:00:00Z"))).toBe(false); // Mon 20:00 CEST
    expect(berlin.openedAt(Date.parse("2026-03-30T09:17:30Z"))).toBe(Date.parse("2026-03-30T06:00:00Z"));
    expect(berlin.openedAt(Date.parse("2026-10-26T09:00:00Z"))).toBe(Date.parse("2026-10-26T07:00:00Z")); // back to CET
  });
  test("a span past midnight belongs to the day it starts on; the zone defaults to UTC", () => {
    const nights = parseSchedule("fri 22:00-06:00");
    expect(nights.inside(Date.parse("2026-03-27T23:00:00Z"))).toBe(true); // Friday night
    expect(nights.inside(Date.parse("2026-03-28T05:59:00Z"))).toBe(true); // Saturday early, Friday's stretch
    expect(nights.inside(Date.parse("2026-03-29T01:00:00Z"))).toBe(false); // Saturday night
    expect(() => parseSchedule("08:00-08:00 UTC")).toThrow("empty span");
  });
});
