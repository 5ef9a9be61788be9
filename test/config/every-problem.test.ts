import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildConfig, ConfigError } from "../../src/load-config";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { runCli } from "../cli/run";

afterAll(removeTempDirs);

const problemsOf = (raw: unknown) => {
  try {
    buildConfig(raw);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
};

test("every problem in one run: a type error no longer hides unknown names, guard secrets or CIDR blocks", () => {
  expect(
    problemsOf({
      server: { port: "eighty" },
      guards: [
        { name: "gh", kind: "github" },
        { name: "ips", kind: "ip-allow", allow: ["300.1.1.1/8"] },
      ],
      handlers: [{ name: "h", kind: "forward", url: "ftp://x" }],
      channels: [{ name: "x", guards: ["nope"], handlers: ["h", "missing"] }],
    }).sort(),
  ).toEqual([
    'channels[0].guards[0]: unknown guard "nope"',
    'channels[0].handlers[1]: unknown handler "missing"',
    "guards[0].secret: give secret or secret_env",
    'guards[1].allow[0]: "300.1.1.1/8" is not an IP address or CIDR block',
    "handlers[0].url: must be an http:// or https:// URL",
    "server.port: expected integer",
  ]);
});

test("every bad entry of an ip-allow list, and every preset's missing key, in one run", () => {
  expect(
    problemsOf({
      guards: [
        { name: "ips", kind: "ip-allow", allow: ["10.0.0.0/8", "300.1.1.1", "2001:db8::/200", "::1", "example.com"] },
        { name: "tw", kind: "twilio" },
        { name: "dc", kind: "discord", public_key: "not hex" },
        { name: "sg", kind: "sendgrid" },
        { name: "meta", kind: "meta", secret: "s", verify_tokn: "typo" },
      ],
    }).sort(),
  ).toEqual([
    'guards[0].allow[1]: "300.1.1.1" is not an IP address or CIDR block',
    'guards[0].allow[2]: "2001:db8::/200" is not an IP address or CIDR block',
    'guards[0].allow[4]: "example.com" is not an IP address or CIDR block',
    "guards[1].secret: give secret or secret_env",
    "guards[2].public_key: does not parse as the hex Ed25519 key",
    "guards[3].public_key: give public_key or public_key_env",
    "guards[4].verify_tokn: unknown key (did you mean verify_token?)",
  ]);
});

test("a TOML syntax error names the file, line and column, never the value", async () => {
  const dir = tempDir("mailroom-toml-");
  const file = join(dir, "bad.toml");
  writeFileSync(file, '[server]\nport = 8080\n\n[[api_keys]]\nlabel = "ci"\ntoken = s3cret-unquoted-token\n');
  const ran = await runCli(["check-config", "--config", file]);
  expect(ran.code).toBe(1);
  expect(ran.stderr).toContain(`${file}:6:9: TOML Parse error`);
  expect(ran.stderr).not.toContain("s3cret-unquoted-token");
});

test('the api key label "local" is reserved for the generated local token: check-config lists it beside the other problems', async () => {
  const dir = tempDir("mailroom-local-label-");
  const file = join(dir, "mailroom.toml");
  writeFileSync(
    file,
    '[server]\nport = 99999\n\n[[api_keys]]\nlabel = "local"\ntoken = "configured-local-token"\n\n[[api_keys]]\nlabel = "ci"\ntoken = "ci-token-12345"\n',
  );
  const ran = await runCli(["check-config", "--config", file]);
  expect(ran.code).toBe(1);
  expect(ran.stderr).toContain(
    '  api_keys[0].label: "local" is reserved for the token Mailroom generates for this machine (mailroom token show|reset); choose another label\n',
  );
  expect(ran.stderr).toContain("  server.port: ");
  expect(ran.stderr).not.toContain("configured-local-token");
  expect(ran.stderr).not.toContain("api_keys[1]");
});
