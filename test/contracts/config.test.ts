import { afterAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/load-config";
import { removeTempDirs, tempDir } from "../helpers/binary";

afterAll(removeTempDirs);

test("[[channels]] schemas: read relative to the config file, compiled once; each bad one named with its key path", async () => {
  const dir = tempDir("mailroom-schemas-");
  mkdirSync(join(dir, "schemas"));
  writeFileSync(join(dir, "schemas", "invoice.json"), '{"type":"object","required":["amount"]}');
  writeFileSync(join(dir, "schemas", "broken.json"), '{"type":"objekt"}');
  writeFileSync(join(dir, "schemas", "text.json"), "not json");
  const file = join(dir, "mailroom.toml");
  writeFileSync(file, '[[channels]]\nname = "billing"\nschemas = { "invoice.*" = "schemas/invoice.json" }\n');
  const { config } = await loadConfig(file, {});
  const [own] = config.channelSchemas!.billing!;
  expect(own!.pattern).toBe("invoice.*");
  expect([own!.validate({ amount: 1 }), own!.validate({})]).toEqual([true, false]);

  writeFileSync(
    file,
    '[[channels]]\nname = "billing"\nschemas = { "a" = "schemas/broken.json", "b" = "schemas/text.json", "c" = "schemas/missing.json", "d*e" = "schemas/invoice.json" }\n',
  );
  const error = await loadConfig(file, {}).catch((e) => e);
  expect(error).toBeInstanceOf(ConfigError);
  const text = String(error.message);
  expect(text).toContain('channels[0].schemas."a": schemas/broken.json: is not a valid JSON Schema');
  expect(text).toContain('channels[0].schemas."b": schemas/text.json: is not JSON');
  expect(text).toContain('channels[0].schemas."c": schemas/missing.json: cannot be read');
  expect(text).toContain('channels[0].schemas."d*e": must be an event type, a prefix followed by *, or *');
});
