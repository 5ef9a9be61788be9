import { describe, expect, test } from "bun:test";
import { GUARD_KINDS } from "../../src/config/guards";
import { fieldOf, GUARD_FIELDS, settingsOf } from "../../src/ui/guard-fields";

const NOT_SETTINGS = new Set(["name", "kind", "secret", "secret_env", "password", "password_env"]);

describe("the guard form's fields", () => {
  test("are, for every kind, the settings of the config file's schema (the secret is asked apart)", () => {
    expect(Object.keys(GUARD_FIELDS).sort()).toEqual(Object.keys(GUARD_KINDS).sort());
    for (const [kind, schema] of Object.entries(GUARD_KINDS)) {
      const settings = Object.keys(schema.properties).filter((k) => !NOT_SETTINGS.has(k));
      expect([kind, GUARD_FIELDS[kind]!.map((f) => f.key).sort()]).toEqual([kind, settings.sort()]);
      for (const f of GUARD_FIELDS[kind]!) {
        const prop = schema.properties[f.key] as { type?: string; anyOf?: { const: string }[] };
        if (f.type === "list") expect([kind, f.key, prop.type]).toEqual([kind, f.key, "array"]);
        if (f.type === "select") expect([kind, f.key, f.options!.sort()]).toEqual([kind, f.key, prop.anyOf!.map((o) => o.const).sort()]);
      }
    }
  });

  test("make settings of what was typed: blanks left to the defaults, lists split", () => {
    expect(settingsOf("hmac", { header: " x-sig ", prefix: "sha256=", algorithm: "sha256", tolerance: "" })).toEqual({
      header: "x-sig",
      prefix: "sha256=",
      algorithm: "sha256",
    });
    expect(settingsOf("ip-allow", { allow: "10.0.0.0/8, ::1\n192.168.1.1" })).toEqual({ allow: ["10.0.0.0/8", "::1", "192.168.1.1"] });
  });

  test("a server message is shown next to the field it names", () => {
    expect(fieldOf("invalid body: settings.header: must match pattern", ["header", "prefix"])).toBe("header");
    expect(fieldOf("guards[0].timestamp_header: must be a header name", ["header", "timestamp_header"])).toBe("timestamp_header");
    expect(fieldOf("a guard named sig exists", ["header"])).toBeUndefined();
  });
});
