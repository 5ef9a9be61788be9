import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { runCli } from "../cli/run";
import { translateConfig } from "../translate/setup";

// What `mailroom check-config` prints for settings that could never work, line for line.

afterAll(removeTempDirs);

const HEADER_NAME = "not a valid header name: letters, digits and ! # $ % & ' * + - . ^ _ ` | ~ only (no spaces)";
const HEADER_VALUE = "not a valid header value: no CR, LF or other control character but tab, and no character above U+00FF";

/** check-config on this TOML text, with no MAILROOM_* variable of the test's own environment. */
async function checkConfig(toml: string, env: Record<string, string> = {}) {
  const file = join(tempDir("mailroom-settings-"), "mailroom.toml");
  writeFileSync(file, toml);
  return runCli(["check-config", "--config", file], { env: { MAILROOM_DATABASE_URL: undefined, MAILROOM_DB: undefined, ...env } });
}

test("a forward handler fetch would refuse: a space in the host, a header name with a space, a value with CR LF; a key with CR LF is printed escaped", async () => {
  const ran = await checkConfig(
    `
[server]
"x\\r\\ny" = 1

[[handlers]]
name = "spaced"
kind = "forward"
url = "http://exa mple.com/x"

[[handlers]]
name = "headed"
kind = "forward"
url = "https://example.com/hook"
headers = { "bad header" = "v", x-token = "s3cret\\r\\nx-evil: 1", authorization_env = "APP_TOKEN" }

[[handlers]]
name = "fine"
kind = "forward"
url = "https://example.com/hook?x=1"
headers = { x-latin = "caf\u00e9", authorization_env = "APP_TOKEN" }
`,
    { APP_TOKEN: "Bearer abc" },
  );
  expect(ran.stderr).toBe(
    [
      "mailroom: the config has 4 problem(s):",
      "  server.x\\r\\ny: unknown key",
      "  handlers[0].url: the host must not contain spaces",
      `  handlers[1].headers.bad header: ${HEADER_NAME}`,
      `  handlers[1].headers.x-token: ${HEADER_VALUE}`,
      "",
    ].join("\n"),
  );
  expect(ran.code).toBe(1);
});

test("a forward URL: not http or https, a port above 65535, a newline", async () => {
  const forward = (name: string, url: string) => `[[handlers]]\nname = "${name}"\nkind = "forward"\nurl = ${JSON.stringify(url)}\n`;
  const ran = await checkConfig(
    [forward("ftp", "ftp://example.com/"), forward("port", "http://example.com:99999/"), forward("newline", "http://example.com/\r\nx")].join("\n"),
  );
  expect(ran.stderr).toBe(
    [
      "mailroom: the config has 3 problem(s):",
      "  handlers[0].url: must be an http:// or https:// URL",
      "  handlers[1].url: not a valid URL (check the host name, and that the port is at most 65535)",
      "  handlers[2].url: must not contain control characters (a tab, CR or LF)",
      "",
    ].join("\n"),
  );
});

test("a malformed PostgreSQL URL names [storage] url, says what is wrong and where it came from, never the password", async () => {
  const cases: [string, Record<string, string>, string][] = [
    [
      "",
      { MAILROOM_DATABASE_URL: "postgres://me:50%off-s3cret@db.example/app" },
      "storage.url: the password is not valid percent-encoding: a % must be followed by two hex digits (write %25 for a % itself); the url comes from the environment variable MAILROOM_DATABASE_URL",
    ],
    [
      '[storage]\nurl_env = "APP_PG"\n',
      { APP_PG: "postgres://me:s3cret@db.example:99999/app" },
      "storage.url: is not a valid URL: check the host name and that the port is at most 65535 (characters such as @ : / ? # % in the user name or password must be percent-encoded, %40 for @); the url comes from the environment variable APP_PG",
    ],
    [
      '[storage]\nurl = "postgres://me:s3cret@db.example/app?password=s3cret"\n',
      {},
      "storage.url: gives the password twice, before the host and as ?password=: give it once",
    ],
    [
      '[storage]\nurl = "postgres://me:s3cret@db.example/app?sslmode=always"\n',
      {},
      "storage.url: ?sslmode= must be one of disable, allow, prefer, require, verify-ca, verify-full",
    ],
    ['[storage]\nurl = "mysql://me:s3cret@db.example/app"\n', {}, 'storage.url: must be a PostgreSQL URL, "postgres://user:pass@host:5432/database"'],
  ];
  for (const [toml, env, line] of cases) {
    const ran = await checkConfig(toml, env);
    expect({ toml, env, code: ran.code, stderr: ran.stderr }).toEqual({ toml, env, code: 1, stderr: `mailroom: the config has 1 problem(s):\n  ${line}\n` });
    expect(ran.stderr + ran.stdout).not.toContain("s3cret");
  }
});

test("a translation fault with error = 418: check-config says which statuses are allowed", async () => {
  const ran = await checkConfig(stringify({ translate: translateConfig({ faults: [{ error: 418 }] }) }));
  expect(ran.stderr).toBe("mailroom: the config has 1 problem(s):\n  translate.faults[0].error: must be 429, 500 or 503\n");
  expect(ran.code).toBe(1);
});

test("serve --forward-to with a URL fetch would refuse: the flag is named, nothing starts", async () => {
  const ran = await runCli(["serve", "--forward-to", "http://exa mple.com/x", "--port", "0"], {
    env: { MAILROOM_DATABASE_URL: undefined, MAILROOM_CONFIG: undefined },
  });
  expect({ code: ran.code, stderr: ran.stderr }).toEqual({
    code: 1,
    stderr: "mailroom: the config has 1 problem(s):\n  --forward-to: the host must not contain spaces\n",
  });
});
