import { expect, test } from "bun:test";
import { buildConfig, ConfigError } from "../../src/load-config";

/** Values that used to load silently as something else are refused, saying what is wrong. */
const refused = (handler: Record<string, unknown>) => {
  try {
    buildConfig({ handlers: [{ name: "f", kind: "forward", url: "http://127.0.0.1:9/", ...handler }] });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("accepted");
};

test('chaos.delay = "5s-1s" is refused (it loaded as 0-0); "1s-5s" loads', () => {
  expect(refused({ chaos: { delay: "5s-1s" } })).toMatch(/handlers\[0\]\.chaos\.delay.*low end is above the high end/);
  expect(() => buildConfig({ handlers: [{ name: "f", kind: "forward", url: "http://127.0.0.1:9/", chaos: { delay: "1s-5s" } }] })).not.toThrow();
});

test('rate = "1/0s" is refused (it loaded as no rate); "1/s" and "5/10s" load', () => {
  expect(refused({ rate: "1/0s" })).toMatch(/handlers\[0\]\.rate.*must be a rate/);
  expect(refused({ rate: "3/0.0ms" })).toMatch(/handlers\[0\]\.rate.*must be a rate/);
  for (const rate of ["1/s", "5/10s", "10/0.5s"])
    expect(() => buildConfig({ handlers: [{ name: "f", kind: "forward", url: "http://127.0.0.1:9/", rate }] })).not.toThrow();
});

test('breaker.cool_down = "300000000d" (and any handler duration past a year) is refused, naming the key', () => {
  expect(refused({ breaker: { cool_down: "300000000d" } })).toMatch(/handlers\[0\]\.breaker\.cool_down.*at most a year/);
  expect(refused({ timeout: "400d" })).toMatch(/handlers\[0\]\.timeout.*at most a year/);
  expect(refused({ backoff: { max: "9999d" } })).toMatch(/handlers\[0\]\.backoff\.max.*at most a year/);
  expect(() => buildConfig({ handlers: [{ name: "f", kind: "forward", url: "http://127.0.0.1:9/", breaker: { cool_down: "30d" } }] })).not.toThrow();
});

test("a resign secret_env that is not set is said once, not again as a missing key", async () => {
  const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { tmpdir } = await import("node:os");
  const { loadConfig } = await import("../../src/config/load");
  const { CONFIG_CHECKS } = await import("../../src/load-config");
  const dir = mkdtempSync(join(tmpdir(), "mr-resign-env-"));
  const file = join(dir, "mailroom.toml");
  writeFileSync(
    file,
    '[[handlers]]\nname = "f"\nkind = "forward"\nurl = "http://127.0.0.1:9/"\nresign = { kind = "stripe", secret_env = "MR_TEST_UNSET_SECRET" }\n',
  );
  const message = await loadConfig(file, {}, {}, CONFIG_CHECKS).then(
    () => "accepted",
    (error: Error) => error.message,
  );
  rmSync(dir, { recursive: true, force: true });
  expect(message.split("\n").filter((line) => line.includes("handlers[0].resign"))).toEqual([
    "handlers[0].resign.secret_env: environment variable MR_TEST_UNSET_SECRET is not set",
  ]);
});
