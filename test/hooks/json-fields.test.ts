import { describe, expect, test } from "bun:test";
import { jsonStrings } from "../../src/hooks/json-fields";
import { detectEventType, EVENT_TYPE_MAX } from "../../src/hooks/event-type";

const bytes = (s: string) => new TextEncoder().encode(s);
const read = (s: string, paths: string[]) => Object.fromEntries(jsonStrings(bytes(s), paths));

describe("jsonStrings: string fields of a JSON object in one scan", () => {
  test("top-level and nested fields, whatever comes before them", () => {
    const body = '{"data":{"object":{"type":"card","x":[1,"}",{"type":"no"}]}},"a":"\\"}","event":{"type":"message"},"type":"event_callback"}';
    expect(read(body, ["type", "event.type", "data.object.type"])).toEqual({ type: "event_callback", "event.type": "message", "data.object.type": "card" });
  });

  test("only string values; the first of a repeated key; escapes decoded", () => {
    expect(read('{"type":1,"event":null}', ["type", "event"])).toEqual({});
    expect(read('{"type":"a","type":"b"}', ["type"])).toEqual({ type: "a" });
    expect(read('{"t\\u0079pe":"x\\u00e9\\n"}', ["type"])).toEqual({ type: "xé\n" });
  });

  test("a body that is a view into a larger buffer (rows unpacked from one buffer) is read from its own bytes", () => {
    const whole = bytes('"type":"outer"}{"type":"a.b","event":"caf\u00e9 \\u0041"}');
    const body = whole.subarray(whole.indexOf(0x7b, 1));
    expect(Object.fromEntries(jsonStrings(body, ["event", "type"]))).toEqual({ event: "café A", type: "a.b" });
  });

  test("not an object, cut short or larger than the limit: what was found before stands", () => {
    expect(read('["type"]', ["type"])).toEqual({});
    expect(read('{"type":"a","b":', ["type"])).toEqual({ type: "a" });
    expect(read('{"b":"unterminated', ["type"])).toEqual({});
    expect(Object.fromEntries(jsonStrings(bytes('{"type":"a"}'), ["type"], 5))).toEqual({});
  });

  test("event types are printable and at most EVENT_TYPE_MAX characters", () => {
    expect(detectEventType({}, bytes(`{"type":"${"x".repeat(300)}"}`))).toHaveLength(EVENT_TYPE_MAX);
    expect(detectEventType({ "x-github-event": "  push " }, bytes("{}"))).toBe("push");
    // Format characters go: a right-to-left override, zero-width spaces and joiners.
    expect(detectEventType({}, bytes('{"type":"\u202einvoice\u200b.paid\u200d"}'))).toBe("invoice.paid");
    // C1 controls too: U+009B is a terminal's CSI, which `mailroom tail` would print.
    expect(detectEventType({}, bytes('{"type":"invoice\u009b31m.paid\u0085"}'))).toBe("invoice31m.paid");
  });
});
