import { expect, test } from "bun:test";
import { join } from "node:path";
import { buildConfig, parseToml } from "../../src/config/load";

test("mailroom.example.toml is a valid config", async () => {
  const file = join(import.meta.dir, "../../mailroom.example.toml");
  const raw = parseToml(await Bun.file(file).text(), file);
  // Every *_env variable the example names, set to a plausible secret.
  const env: Record<string, string> = {};
  for (const m of (await Bun.file(file).text()).matchAll(/_env\s*=\s*"([A-Z0-9_]+)"/g)) env[m[1]!] = "whsec_" + btoa("example-secret-value-32-bytes!!!");
  const config = buildConfig(raw, env);
  expect(config.channels.length).toBeGreaterThan(0);
  expect(config.api_keys.length).toBeGreaterThan(0);
});
