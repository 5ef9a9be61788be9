import { describe, expect, test } from "bun:test";
import { buildFixture, parseFixture, prepareFixture } from "../src/fixtures";
import { createPlaceholders, luhn, SECRET_FIELD, scrubText } from "../src/fixtures/detect";
import { freshId, freshTime } from "../src/fixtures/refresh";
import { fresh } from "../src/triggers/fresh";
import type { RawHook } from "../src/hooks/store";

const hook = (body: string, headers: Record<string, string> = { "content-type": "application/json" }, query = "channel=c"): RawHook => ({
  id: "01jd3q9x0c2m8t6v4r2k8p1w5z",
  channel: "c",
  status: "pending",
  method: "POST",
  query,
  headers,
  body: new TextEncoder().encode(body),
  ip: "203.0.113.1",
  createdAt: Date.UTC(2026, 0, 1),
  finalizedAt: null,
  eventType: "",
});

describe("what is taken for a secret or personal data, and what is not", () => {
  test("card numbers by the Luhn check; times, ids and versions are kept", () => {
    expect(luhn("4242424242424242")).toBe(true);
    expect(luhn("4242424242424241")).toBe(false);
    const p = createPlaceholders();
    const kept = [
      "2026-11-28T10:00:00Z",
      "10:00:00",
      "evt_1NqKxyzABC123",
      "1732780800000",
      "4242424242424241",
      "refs/heads/main",
      "v1.2.3",
      "12345678",
      "de305d54-75b4-431b-adb2-eb6b9e546014",
    ];
    for (const text of kept) expect({ text, out: scrubText(text, p).text }).toEqual({ text, out: text });
    expect(scrubText("5555 5555 5555 4444", p).text).toBe("4000000000000010");
    expect(scrubText("call +14155552671 or mail a.b@c.io", p).text).toBe("call +15550100001 or mail email-1@example.com");
  });

  test("fields named as credentials, not those naming a URL or a time", () => {
    for (const name of ["password", "client_secret", "api_key", "apikey", "x-api-key", "access_token", "refresh-token", "tokens", "cvc", "session"])
      expect({ name, hit: SECRET_FIELD.test(name) }).toEqual({ name, hit: true });
    for (const name of ["access_tokens_url", "password_changed_at", "token_type", "author", "description", "tokenizer", "pinned"])
      expect({ name, hit: SECRET_FIELD.test(name) }).toEqual({ name, hit: false });
  });
});

describe("buildFixture", () => {
  test("a JSON body is kept as JSON only when it writes back to the same bytes; else text", () => {
    expect(buildFixture(hook('{"a":1}'))).toMatchObject({ body_encoding: "json", json_indent: 0, body: { a: 1 } });
    expect(buildFixture(hook('{\n  "a": 1\n}'))).toMatchObject({ body_encoding: "json", json_indent: 2 });
    expect(buildFixture(hook('{"a": 1}'))).toMatchObject({ body_encoding: "text", body: '{"a": 1}' });
    expect(buildFixture(hook('{"n":12345678901234567890}'))).toMatchObject({ body_encoding: "text" });
  });

  test("a large body with many values to scrub takes time in proportion (the route runs on the catching thread)", () => {
    const items = Array.from({ length: 40_000 }, (_, i) => ({ id: `cus_${i}`, email: `user${i}@example.org`, amount: i }));
    const started = performance.now();
    const f = buildFixture(hook(JSON.stringify({ data: items })));
    expect(f.scrubbed).toHaveLength(40_000);
    expect(f.scrubbed[39_999]).toBe("body.data.39999.email");
    // About 0.3 s here; a path list searched for each mark took about 9 s.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  test("a body that is not UTF-8 text is base64, and not looked into", () => {
    const f = buildFixture({ ...hook(""), body: new Uint8Array([0xff, 0x00, 0x41]) });
    expect(f).toMatchObject({ body_encoding: "base64", body: "/wBB" });
  });

  test("JSON nested deeper than the stack is kept as text, scrubbed as text; the headers' marks stay", () => {
    const deep = `${"[".repeat(100_000)}"ada@example.org"${"]".repeat(100_000)}`;
    const f = buildFixture(hook(deep, { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" }));
    expect(f.body_encoding).toBe("text");
    expect(String(f.body)).not.toContain("ada@example.org");
    expect(f.scrubbed).toEqual(["headers.x-forwarded-for", "body"]);
  });

  test("a text body is scrubbed as text; --no-scrub keeps every header and value", () => {
    const f = buildFixture(hook("from ada@example.org via 203.0.113.9", { "content-type": "text/plain", authorization: "Bearer x" }));
    expect(f.body).toBe("from email-1@example.com via 192.0.2.1");
    expect(f.scrubbed).toEqual(["body"]);
    const raw = buildFixture(hook("from ada@example.org", { "content-type": "text/plain", authorization: "Bearer x", host: "h" }), { scrub: false });
    expect(raw.body).toBe("from ada@example.org");
    expect(raw.headers.authorization).toBe("Bearer x");
    expect(raw.dropped).toEqual(["host"]);
    expect(raw.scrub).toBe(false);
  });

  test("keep and scrub: paths with *, bare header names; keep wins", () => {
    const body = JSON.stringify({ data: { a: { email: "a@example.org", note: "n" }, b: { email: "b@example.org", note: "m" } } });
    const f = buildFixture(hook(body, { "content-type": "application/json", "x-shop": "s.example", "stripe-signature": "t=1,v1=0" }), {
      keep: ["body.data.a", "stripe-signature"],
      always: ["body.data.*.note", "x-shop"],
    });
    const data = (f.body as { data: Record<string, { email: string; note: string }> }).data;
    expect(data.a).toEqual({ email: "a@example.org", note: "n" });
    expect(data.b!.email).toBe("email-1@example.com");
    // Headers come first: the same counter numbers them.
    expect(f.headers["x-shop"]).toBe("scrubbed-1");
    expect(data.b!.note).toBe("scrubbed-2");
    expect(f.headers["stripe-signature"]).toBe("t=1,v1=0");
  });
});

describe("parseFixture and prepareFixture", () => {
  const base = { mailroom_fixture: 1, method: "POST", headers: { "content-type": "application/json" }, body_encoding: "json", body: { a: 1 } };

  test("limits: headers, sizes, paths", () => {
    const headers = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`x-${i}`, "v"]));
    expect(() => parseFixture(JSON.stringify({ ...base, headers }))).toThrow("headers: at most 100");
    expect(() => parseFixture(JSON.stringify({ ...base, headers: { "x-a": "v".repeat(8193) } }))).toThrow("headers.x-a: must be a header value");
    expect(() => parseFixture(JSON.stringify({ ...base, path: "//evil.example/x" }))).not.toThrow();
    expect(() => parseFixture(JSON.stringify({ ...base, path: "/a b" }))).toThrow("path:");
    expect(() => parseFixture(JSON.stringify({ ...base, query: "a=b#c" }))).toThrow("query:");
    expect(() => parseFixture(JSON.stringify({ ...base, body_encoding: "base64", body: "not base64!" }))).toThrow("body: not base64");
    expect(() => parseFixture("[]")).toThrow("not a Mailroom fixture");
    expect(() => parseFixture(`{"mailroom_fixture":1,"body":${"[".repeat(100_000)}${"]".repeat(100_000)},"body_encoding":"json"}`)).toThrow();
  });

  test("fresh ids in the shape of the old, fresh times in their format; overrides of a JSON body and of a form", () => {
    const f = fresh(Date.UTC(2026, 10, 28, 10));
    expect(freshId("evt_1NqKxyzABC123", f)).toMatch(/^evt_\d[A-Z][a-z][A-Z][a-z]{3}[A-Z]{3}\d{3}$/);
    expect(freshId("de305d54-75b4-431b-adb2-eb6b9e546014", f)).toMatch(/^[0-9a-f-]{36}$/);
    expect(freshTime(1700000000, f)).toBe(f.unix);
    expect(freshTime(1700000000000, f)).toBe(f.now);
    expect(freshTime("2023-11-14T22:13:20Z", f)).toBe("2026-11-28T10:00:00Z");
    expect(freshTime("1700000000.000100", f)).toBe(`${f.unix}.000100`);
    const slack = parseFixture(
      JSON.stringify({
        ...base,
        provider: "slack",
        headers: { "x-slack-request-timestamp": "1700000000" },
        body: { event_id: "Ev01ABC", event_time: 1700000000, event: { event_ts: "1700000000.000100" } },
      }),
    );
    const sent = prepareFixture(slack, { "event.text": "hi" }, f.now);
    expect(sent.headers["x-slack-request-timestamp"]).toBe(String(f.unix));
    const body = JSON.parse(new TextDecoder().decode(sent.body));
    expect(body).toMatchObject({ event_time: f.unix, event: { event_ts: `${f.unix}.000100`, text: "hi" } });
    expect(body.event_id).toMatch(/^Ev\d\d[A-Z]{3}$/);
    // A provider's signed timestamp header, whichever it is (Zoom's), is made fresh too.
    const zoom = parseFixture(JSON.stringify({ ...base, provider: "zoom", headers: { "x-zm-request-timestamp": "1700000000" } }));
    expect(prepareFixture(zoom, {}, f.now).headers["x-zm-request-timestamp"]).toBe(String(f.unix));
    const form = parseFixture(
      JSON.stringify({ ...base, headers: { "content-type": "application/x-www-form-urlencoded" }, body_encoding: "text", body: "Body=hi&From=x" }),
    );
    expect(new TextDecoder().decode(prepareFixture(form, { Body: "STOP" }).body)).toBe("Body=STOP&From=x");
    const text = parseFixture(JSON.stringify({ ...base, headers: {}, body_encoding: "text", body: "plain" }));
    expect(() => prepareFixture(text, { a: 1 })).toThrow("--override: the body is text");
    expect(() => prepareFixture(parseFixture(JSON.stringify(base)), { "__proto__.x": 1 })).toThrow("not a path");
  });
});
