import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { buildConfig } from "../../src/load-config";

describe("the loaded config", () => {
  test("holds what the code uses: milliseconds, bytes, host and port, compiled URL patterns", () => {
    const c = buildConfig({
      storage: { attempt_lease: "1m" },
      hooks: { max_body: "2MB", paused_retry_after: "90s", retention: "30d" },
      metrics: { listen: "[::1]:9464" },
      dashboard: { member_send_to: ["http://localhost:*"] },
      handlers: [{ name: "f", kind: "forward", url: "http://127.0.0.1:3000/", backoff: { initial: "2s", max: "1m" }, timeout: "500ms" }],
      channels: [{ name: "gh", handlers: ["f"], dedup: { window: "7d" } }],
      translate: { max_body: 1000, maintenance_retry_after: "2m", rate_limit: { per: "1m" }, simulator: { accept_after: "1s", complete_after: "1.5s" } },
    });
    expect(c.storage.attempt_lease).toBe(60_000);
    expect(c.hooks).toMatchObject({ max_body: 2 * 1024 * 1024, paused_retry_after: 90_000, retention: 30 * 86_400_000 });
    expect(c.metrics.listen).toEqual({ host: "::1", port: 9464 });
    expect(c.handlers[0]).toMatchObject({ backoff: { initial: 2000, max: 60_000 }, timeout: 500 });
    // The window as written stays beside it: the API shows it.
    expect(c.channels[0]!.dedup).toEqual({ window: "7d", window_ms: 7 * 86_400_000 });
    expect(c.translate).toMatchObject({ max_body: 1000, maintenance_retry_after: 120_000, rate_limit: { per: 60_000 } });
    expect(c.translate.simulator).toMatchObject({ accept_after: 1000, complete_after: 1500 });
    const [pattern] = c.dashboard.member_send_to;
    expect(pattern!.pattern).toBe("http://localhost:*");
    expect(pattern!.matches("http://localhost:3000/hooks")).toBe(true);
    expect(pattern!.matches("http://localhost:@10.0.0.1/")).toBe(false);
  });

  test("public_url: as written, without its trailing slash for paths after it, and its origin", () => {
    const c = buildConfig({ server: { public_url: "https://Hooks.Example.com:443/in/" } });
    expect(c.server.public_url).toEqual({
      href: "https://Hooks.Example.com:443/in/",
      base: "https://Hooks.Example.com:443/in",
      origin: "https://hooks.example.com",
    });
    expect(buildConfig({}).server.public_url).toBeUndefined();
    expect(() => buildConfig({ server: { public_url: "ftp://x" } })).toThrow("must be an http:// or https:// URL");
  });

  test("guards keep the form they were written in (the dashboard shows it)", () => {
    const c = buildConfig({ guards: [{ name: "h", kind: "hmac", secret: "s", header: "x-sig", tolerance: "5m" }] });
    expect(c.guards[0]).toMatchObject({ tolerance: "5m" });
  });
});

test("src/config imports only src/lib (and packages): the services' checks are handed to it", () => {
  const root = resolve(import.meta.dir, "../../src");
  const outside: string[] = [];
  for (const file of readdirSync(join(root, "config"))) {
    if (!file.endsWith(".ts")) continue;
    const text = readFileSync(join(root, "config", file), "utf8");
    for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
      if (!specifier!.startsWith(".")) continue;
      const target = relative(root, resolve(root, "config", specifier!));
      if (!target.startsWith("config/") && !target.startsWith("lib/")) outside.push(`src/config/${file} -> src/${target}`);
    }
  }
  expect(outside).toEqual([]);
});
