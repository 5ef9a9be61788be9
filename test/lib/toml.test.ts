import { expect, test } from "bun:test";
import { parseToml, TomlError } from "../../src/lib/toml";

test("TOML text becomes its tables", () => {
  expect(parseToml('[server]\nport = 8080\n\n[[api_keys]]\nlabel = "ci"\n', "m.toml")).toEqual({ server: { port: 8080 }, api_keys: [{ label: "ci" }] });
});

test("a syntax error names the file, line and column", () => {
  let error: unknown;
  try {
    parseToml("[server]\nport = 80\n[storage\n", "bad.toml");
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(TomlError);
  expect((error as Error).message).toMatch(/^bad\.toml:3:\d+: TOML Parse error/);
});

test("a value written without quotes (a secret, perhaps) is not in the message; its line is", () => {
  const text = '[[guards]]\nname = "gh"\nsecret = abcSECRETxyz\n';
  const message = (() => {
    try {
      parseToml(text, "bad.toml");
    } catch (e) {
      return (e as Error).message;
    }
  })();
  expect(message).toStartWith("bad.toml:3:");
  expect(message).toContain("line 3");
  expect(message).not.toContain("SECRET");
});
