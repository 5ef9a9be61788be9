import { describe, expect, test } from "bun:test";
import { exact, jsonString, relative, size, visible } from "../../src/ui/format";

describe("the dashboard's one format for sizes and times", () => {
  test("sizes are in human units, one decimal below 100", () => {
    expect(size(0)).toBe("0 B");
    expect(size(1023)).toBe("1023 B");
    expect(size(1024)).toBe("1.0 KB");
    expect(size(12_650)).toBe("12.4 KB");
    // the 1,048,686-byte body reads 1.0 MB in the list and on the hook's page alike
    expect(size(1_048_686)).toBe("1.0 MB");
    expect(size(150 * 1024 * 1024)).toBe("150 MB");
    expect(size(3 * 1024 ** 3)).toBe("3.0 GB");
  });

  test("times are relative, the past as 'ago' and the future as 'in', a date past a week", () => {
    const now = Date.parse("2026-11-26T12:00:00Z");
    const at = (ms: number) => new Date(now - ms).toISOString();
    expect(relative(at(0), now)).toBe("just now");
    expect(relative(at(3_000), now)).toBe("3 s ago");
    expect(relative(at(59_000), now)).toBe("59 s ago");
    expect(relative(at(5 * 60_000), now)).toBe("5 min ago");
    expect(relative(at(2 * 3_600_000 + 5), now)).toBe("2 h ago");
    expect(relative(at(3 * 86_400_000), now)).toBe("3 d ago");
    expect(relative(at(-120_000), now)).toBe("in 2 min");
    expect(relative(at(30 * 86_400_000), now)).toMatch(/^\d{1,2} Oct \d\d:\d\d$/);
    expect(relative(at(400 * 86_400_000), now)).toMatch(/^\d{1,2} [A-Z][a-z]{2} 2025$/);
    expect(relative("not a time", now)).toBe("not a time");
  });

  test("the exact time names the date, the time to the second and the zone", () => {
    expect(exact("2026-11-26T10:53:52.120Z")).toMatch(/^2026-11-2\d \d\d:\d\d:52 [+-]\d\d:\d\d$/);
  });

  test("text and JSON a sender chose show what hides or turns text around as escapes (zero-width joiners stay); JSON stays valid", () => {
    const sent = "\u202egnp.exe\u200b<b>\u2066x\u2069 👨\u200d👩";
    expect(jsonString(sent)).toBe('"\\u202egnp.exe\\u200b<b>\\u2066x\\u2069 👨\u200d👩"');
    expect(JSON.parse(jsonString(sent))).toBe(sent);
    expect(jsonString('plain "quoted"\n')).toBe(JSON.stringify('plain "quoted"\n'));
    expect(jsonString({ [sent]: [sent] })).toBe(`{${jsonString(sent)}:[${jsonString(sent)}]}`);
    expect(jsonString(undefined)).toBe("");
    // As text (a refused channel name, a header, a translation's text): the same escapes, nothing else changed.
    expect(visible(`${sent} "ok"`)).toBe('\\u202egnp.exe\\u200b<b>\\u2066x\\u2069 👨\u200d👩 "ok"');
  });
});
