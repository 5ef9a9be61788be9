import { expect, test } from "bun:test";
import { currentTarget, ExecutableNotFound, findExecutable, TARGETS } from "../../src/testing/platform";

test("each platform npm knows maps to the target whose package holds its executable", () => {
  expect(currentTarget("linux", "x64", () => false)).toBe("linux-x64");
  expect(currentTarget("linux", "arm64", () => true)).toBe("linux-arm64-musl");
  expect(currentTarget("darwin", "arm64")).toBe("darwin-arm64");
  expect(currentTarget("win32", "x64")).toBe("windows-x64");
  expect(currentTarget("win32", "arm64")).toBeUndefined();
  expect(currentTarget("freebsd", "x64")).toBeUndefined();
  expect(TARGETS).toContain(currentTarget()!);
});

test("the executable: MAILROOM_BIN when set, else the platform package, else an error that says what to install", () => {
  expect(findExecutable({ MAILROOM_BIN: process.execPath })).toBe(process.execPath);
  expect(() => findExecutable({ MAILROOM_BIN: "/nowhere/mailroom" })).toThrow("MAILROOM_BIN is /nowhere/mailroom, which does not exist");
  // This repository does not install its own platform packages.
  const error = (() => {
    try {
      return findExecutable({});
    } catch (e) {
      return e;
    }
  })();
  expect(error).toBeInstanceOf(ExecutableNotFound);
  expect(String(error)).toContain(`the package mailroom-webhooks-${currentTarget()}, which holds Mailroom's executable for this machine, is not installed`);
  expect(String(error)).toContain("set MAILROOM_BIN");
});
