import { expect, test } from "bun:test";
import { parseArgs } from "../../src/cli";

test("mailroom user add EMAIL --role admin", () => {
  expect(parseArgs(["user", "add", "ada@example.com", "--role", "admin"])).toEqual({
    kind: "user-add",
    email: "ada@example.com",
    role: "admin",
    passwordStdin: false,
  });
  expect(parseArgs(["user", "add", "max@example.com", "--password-stdin", "--config", "m.toml"])).toEqual({
    kind: "user-add",
    email: "max@example.com",
    role: "member",
    passwordStdin: true,
    config: "m.toml",
  });
  expect(parseArgs(["user", "add", "ada@example.com", "--role", "root"])).toEqual({ kind: "error", message: "--role: must be admin or member, not root" });
  expect(parseArgs(["user", "add"]).kind).toBe("error");
  expect(parseArgs(["user", "remove", "x@y.z"]).kind).toBe("error");
});

test("user add takes --role=admin and --config=FILE as every other command takes a flag's value", () => {
  expect(parseArgs(["user", "add", "ada@example.com", "--role=admin", "--config=m.toml"])).toEqual({
    kind: "user-add",
    email: "ada@example.com",
    role: "admin",
    passwordStdin: false,
    config: "m.toml",
  });
  expect(parseArgs(["user", "add", "ada@example.com", "--password-stdin=yes"])).toEqual({ kind: "error", message: "--password-stdin takes no value" });
});
