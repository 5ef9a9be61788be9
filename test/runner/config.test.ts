import { describe, expect, test } from "bun:test";
import { buildConfig, ConfigError } from "../../src/load-config";

function problems(raw: Record<string, unknown>, env: Record<string, string> = {}): string[] {
  try {
    buildConfig(raw, env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((p) => `${p.path}: ${p.message}`);
  }
}

describe("[[handlers]] config", () => {
  test("defaults fill every kind's policy (durations in milliseconds, as the loader converts them)", () => {
    const config = buildConfig({
      handlers: [
        { name: "f", kind: "forward", url: "http://127.0.0.1:3000/webhooks" },
        { name: "c", kind: "command", argv: ["./deploy.sh"] },
        { name: "m", kind: "module", path: "handlers/m.ts" },
      ],
    });
    expect(config.handlers[0]).toEqual({
      name: "f",
      kind: "forward",
      url: "http://127.0.0.1:3000/webhooks",
      headers: {},
      max_attempts: 5,
      backoff: { initial: 1000, max: 600_000 },
      concurrency: 4,
      timeout: 10_000,
    } as any);
    expect(config.handlers[1]).toMatchObject({ argv: ["./deploy.sh"], env: {}, timeout: 30_000, max_attempts: 5 });
    expect(config.handlers[2]).toMatchObject({ path: "handlers/m.ts", timeout: 30_000, backoff: { initial: 1000, max: 600_000 } });
  });

  test("unknown keys, keys of another kind and bad values are reported with their paths", () => {
    expect(
      problems({
        handlers: [
          { name: "f", kind: "forward", url: "ftp://x", argv: ["x"] },
          { name: "c", kind: "command", argv: [], timeout: "soon", backoff: { initial: "1s", maximum: "2s" } },
          { name: "m", kind: "module", path: "m.ts", max_attempts: 0, concurrency: 1.5 },
          { name: "x", kind: "webhook" },
        ],
      }),
    ).toEqual(
      expect.arrayContaining([
        "handlers[0].argv: unknown key",
        expect.stringMatching(/^handlers\[0\]\.url: /),
        expect.stringMatching(/^handlers\[1\]\.argv: /),
        expect.stringMatching(/^handlers\[1\]\.timeout: /),
        "handlers[1].backoff.maximum: unknown key",
        expect.stringMatching(/^handlers\[2\]\.max_attempts: /),
        expect.stringMatching(/^handlers\[2\]\.concurrency: /),
        'handlers[3].kind: unknown kind "webhook" (one of: command, forward, module)',
      ]),
    );
  });

  test("a missing required key is named", () => {
    expect(problems({ handlers: [{ name: "f", kind: "forward" }] })).toEqual([expect.stringMatching(/^handlers\[0\]\.url: /)]);
    expect(problems({ handlers: [{ name: "m", kind: "module" }] })).toEqual([expect.stringMatching(/^handlers\[0\]\.path: /)]);
  });

  test("secrets come from the environment: url_env, header and env values", () => {
    const config = buildConfig(
      {
        handlers: [
          { name: "f", kind: "forward", url_env: "TARGET", headers: { authorization_env: "TOKEN" } },
          { name: "c", kind: "command", argv: ["x"], env: { API_KEY_env: "TOKEN" } },
        ],
      },
      { TARGET: "https://example.com/hook", TOKEN: "Bearer t0k3n" },
    );
    expect(config.handlers[0]).toMatchObject({ url: "https://example.com/hook", headers: { authorization: "Bearer t0k3n" } });
    expect(config.handlers[1]).toMatchObject({ env: { API_KEY: "Bearer t0k3n" } });
  });

  test("a channel naming an unknown handler is a config error", () => {
    expect(problems({ channels: [{ name: "c", handlers: ["nope"] }] })).toEqual(['channels[0].handlers[0]: unknown handler "nope"']);
  });
});
