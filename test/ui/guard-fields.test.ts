import { describe, expect, test } from "bun:test";
import { GUARD_KINDS } from "../../src/hooks/guards/kinds";
import { fieldOf, formFields, GUARD_FIELDS, settingsOf } from "../../src/ui/guard-fields";

describe("the guard form's fields", () => {
  test("the table's labels and controls name real settings of the config file's schemas, with the same kind of value", () => {
    for (const [kind, fields] of Object.entries(GUARD_FIELDS)) {
      const schema = GUARD_KINDS[kind];
      expect([kind, schema !== undefined]).toEqual([kind, true]);
      for (const f of fields) {
        const prop = schema!.properties[f.key] as { type?: string; anyOf?: { const: string }[] } | undefined;
        expect([kind, f.key, prop !== undefined]).toEqual([kind, f.key, true]);
        if (f.type === "list") expect([kind, f.key, prop!.type]).toEqual([kind, f.key, "array"]);
        if (f.type === "select") expect([kind, f.key, [...f.options!].sort()]).toEqual([kind, f.key, prop!.anyOf!.map((o) => o.const).sort()]);
      }
    }
  });

  test("every kind gets a form from the server's list of its settings; the table adds labels and controls", () => {
    const fields = formFields({
      kind: "hmac",
      secret: "secret",
      fields: [
        { key: "header", description: "request header carrying the signature", required: true },
        { key: "algorithm", description: "HMAC hash function", required: false, default: "sha256" },
      ],
    });
    expect(fields.map((f) => [f.key, f.label, f.type, f.required])).toEqual([
      ["header", "Signature header", "text", true],
      ["algorithm", "Algorithm", "select", false],
    ]);
    expect(fields[0]!.hint).toBe("Request header carrying the signature");
    const preset = formFields({
      kind: "acme-cloud",
      secret: "public_key",
      fields: [{ key: "allowed_events", description: "events", required: false, default: ["a", "b"] }],
    });
    expect(preset).toMatchObject([{ key: "allowed_events", label: "Allowed events", type: "list", placeholder: "a, b" }]);
  });

  test("make settings of what was typed: blanks left to the defaults, lists split", () => {
    expect(settingsOf(GUARD_FIELDS.hmac!, { header: " x-sig ", prefix: "sha256=", algorithm: "sha256", tolerance: "" })).toEqual({
      header: "x-sig",
      prefix: "sha256=",
      algorithm: "sha256",
    });
    expect(settingsOf(GUARD_FIELDS["ip-allow"]!, { allow: "10.0.0.0/8, ::1\n192.168.1.1" })).toEqual({ allow: ["10.0.0.0/8", "::1", "192.168.1.1"] });
  });

  test("a server message is shown next to the field it names", () => {
    expect(fieldOf("invalid body: settings.header: must match pattern", ["header", "prefix"])).toBe("header");
    expect(fieldOf("guards[0].timestamp_header: must be a header name", ["header", "timestamp_header"])).toBe("timestamp_header");
    expect(fieldOf("a guard named sig exists", ["header"])).toBeUndefined();
  });
});
