import { describe, expect, test } from "bun:test";
import { buildConfig, ConfigError, parseToml } from "../../src/load-config";
import { parseDuration, parseSize } from "../../src/lib/units";
import { parseArgs } from "../../src/cli";

function problems(raw: unknown, env: Record<string, string> = {}): string[] {
  try {
    buildConfig(raw, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
}

describe("config", () => {
  test("defaults: 127.0.0.1:8080, data/mailroom.db, full durability, 10MB bodies", () => {
    const c = buildConfig({});
    expect(c.server).toEqual({ host: "127.0.0.1", port: 8080, trust_proxy: false, allow_link_local: false });
    expect(c.dashboard).toEqual({ member_send_to: [] });
    expect(c.storage.path).toBe("data/mailroom.db");
    expect(c.storage.durability).toBe("full");
    expect(c.hooks.max_body).toBe(10 * 1024 * 1024);
    expect(c.channels).toEqual([]);
  });

  test("the issue's example file is accepted", () => {
    const toml = `
[server]
host = "127.0.0.1"
port = 8080
trust_proxy = false
[storage]
path = "data/mailroom.db"
durability = "full"
[[api_keys]]
label = "ci"
token = "change-me"
[hooks]
max_body = "10MB"
default_guards = []
[[channels]]
name = "github"
guards = []
handlers = []
`;
    const c = buildConfig(parseToml(toml, "x.toml"));
    expect(c.api_keys[0]!.label).toBe("ci");
    expect(c.channels[0]!.name).toBe("github");
  });

  test("every problem is reported with its key path", () => {
    const found = problems({
      server: { port: "80", hots: "x" },
      storage: { durability: "sometimes" },
      hooks: { max_body: "ten", default_guards: ["nope"] },
      channels: [{ name: "Bad Name" }, { name: "ok", handlers: ["missing"] }],
      extra: 1,
    });
    expect(found).toContain("server.port: expected integer");
    expect(found).toContain("server.hots: unknown key (did you mean host?)");
    expect(found).toContain('storage.durability: must be one of "full", "normal"');
    expect(found).toContain('hooks.max_body: must be a number of bytes or a size such as "512KB", "10MB"');
    expect(found.some((p) => p.startsWith("channels[0].name: must be lowercase"))).toBe(true);
    expect(found).toContain("extra: unknown key");
  });

  test("did you mean: a close key, guard kind, guard or handler name is named; a far one is not", () => {
    const found = problems({
      server: { prot: 8080 },
      storage: { duarbility: "full" },
      guards: [
        { name: "gh", kind: "githubb", secret: "s" },
        { name: "far", kind: "zzzzzzzz", secret: "s" },
      ],
      handlers: [{ name: "run", kind: "comand", argv: ["true"] }],
      channels: [{ name: "a", guards: ["gh2"], handlers: ["runn"] }],
      hooks: { default_guards: ["nothing-like-it"] },
    });
    expect(found).toContain("server.prot: unknown key (did you mean port?)");
    expect(found).toContain("storage.duarbility: unknown key (did you mean durability?)");
    expect(found).toContain('guards[0].kind: unknown kind "githubb" (did you mean github?)');
    // No close name: not 140 names, but where they are.
    const far = found.find((p) => p.startsWith("guards[1].kind"))!;
    expect(far).toMatch(/^guards\[1\]\.kind: unknown kind "zzzzzzzz": none of the \d+ guard kinds is close \(`mailroom providers` lists the providers/);
    expect(far).toContain("the others are basic-auth, content-type, hmac, ip-allow");
    expect(far.length).toBeLessThan(250);
    expect(found).toContain('handlers[0].kind: unknown kind "comand" (did you mean command?)');
    expect(found).toContain('channels[0].guards[0]: unknown guard "gh2" (did you mean gh?)');
    expect(found).toContain('channels[0].handlers[0]: unknown handler "runn" (did you mean run?)');
    expect(found).toContain('hooks.default_guards[0]: unknown guard "nothing-like-it"');
  });

  test("cross references: unknown guards and handlers, duplicate names", () => {
    const found = problems({
      hooks: { default_guards: ["ghost"] },
      channels: [{ name: "a", guards: ["ghost"], handlers: ["nobody"] }, { name: "a" }],
      api_keys: [
        { label: "k", token: "12345678" },
        { label: "k", token: "abcdefgh" },
      ],
    });
    expect(found).toContain('hooks.default_guards[0]: unknown guard "ghost"');
    expect(found).toContain('channels[0].guards[0]: unknown guard "ghost"');
    expect(found).toContain('channels[0].handlers[0]: unknown handler "nobody"');
    expect(found).toContain('channels[1].name: duplicate channel "a"');
    expect(found).toContain('api_keys[1].label: duplicate label "k"');
  });

  test("secrets from the environment, never echoed in problems", () => {
    const c = buildConfig({ api_keys: [{ label: "ci", token_env: "MR_TOKEN" }] }, { MR_TOKEN: "from-the-env-123" });
    expect(c.api_keys[0]!.token).toBe("from-the-env-123");
    expect(problems({ api_keys: [{ label: "ci", token_env: "UNSET_VAR" }] })).toEqual(["api_keys[0].token_env: environment variable UNSET_VAR is not set"]);
    expect(problems({ api_keys: [{ label: "ci" }] })).toEqual(["api_keys[0]: give exactly one of token, token_env, token_sha256"]);
  });

  test("environment and command line override the file", () => {
    const c = buildConfig({ server: { port: 1 } }, { MAILROOM_PORT: "2", MAILROOM_DB: ":memory:" }, { host: "0.0.0.0" });
    expect(c.server.port).toBe(2);
    expect(c.server.host).toBe("0.0.0.0");
    expect(c.storage.path).toBe(":memory:");
    expect(buildConfig({}, { MAILROOM_PORT: "2" }, { port: 3 }).server.port).toBe(3);
  });

  test("a TOML syntax error is a config problem, not a crash", () => {
    expect(() => parseToml("[server\nport = ", "bad.toml")).toThrow(ConfigError);
  });

  test("a secret written without quotes is not printed in the syntax error; its line is", () => {
    let problem = "";
    try {
      parseToml('[[guards]]\nname = "gh"\nsecret = abcSECRETxyz\n', "bad.toml");
    } catch (error) {
      problem = (error as ConfigError).problems[0]!.message;
    }
    expect(problem).toContain("bad.toml");
    expect(problem).toContain("line 3");
    expect(problem).not.toContain("abcSECRETxyz");
  });
});

describe("units", () => {
  test("durations", () => {
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("10s")).toBe(10_000);
    expect(parseDuration("5m")).toBe(300_000);
    expect(parseDuration("1.5h")).toBe(5_400_000);
    expect(parseDuration("2d")).toBe(172_800_000);
    expect(parseDuration("10")).toBeUndefined();
    expect(parseDuration("soon")).toBeUndefined();
  });
  test("sizes", () => {
    expect(parseSize(2048)).toBe(2048);
    expect(parseSize("10MB")).toBe(10 * 1024 * 1024);
    expect(parseSize("1kb")).toBe(1024);
    expect(parseSize("3 GiB")).toBe(3 * 1024 ** 3);
    expect(parseSize("12")).toBe(12);
    expect(parseSize("10 parsecs")).toBeUndefined();
    expect(parseSize(-1)).toBeUndefined();
  });
});

describe("command line", () => {
  test("serve is the default command; flags in both forms", () => {
    expect(parseArgs([])).toEqual({ kind: "serve" });
    expect(parseArgs(["serve", "--port", "9000", "--host=0.0.0.0", "--config", "x.toml"])).toEqual({
      kind: "serve",
      port: 9000,
      host: "0.0.0.0",
      config: "x.toml",
    });
    expect(parseArgs(["check-config", "--config", "x.toml"])).toEqual({ kind: "check-config", config: "x.toml" });
    expect(parseArgs(["--version"])).toEqual({ kind: "version" });
    expect(parseArgs(["--help"])).toEqual({ kind: "help" });
  });
  test("mistakes are errors, not crashes", () => {
    expect(parseArgs(["--port", "http"]).kind).toBe("error");
    expect(parseArgs(["--port"]).kind).toBe("error");
    expect(parseArgs(["--frobnicate", "1"]).kind).toBe("error");
    expect(parseArgs(["check-config", "--port", "1"]).kind).toBe("error");
  });
});
