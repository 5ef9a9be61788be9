import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildConfig } from "../../src/load-config";
import { createHandlers } from "../../src/runner/handlers";
import type { RawHook } from "../../src/hooks/store";
import { createRunnerApp } from "./setup";

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
/** A temp dir with the given files. */
function files(map: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-module-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(map)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}
const moduleHandler = (name: string, path: string, extra: Record<string, unknown> = {}) => ({
  name,
  kind: "module",
  path,
  backoff: { initial: "1s", max: "10s" },
  ...extra,
});

describe("module handler", () => {
  test("a TypeScript file's default export is called with the hook; returning -> handled, its value kept", async () => {
    const dir = files({
      "lib.ts": `export const shout = (s: string): string => s.toUpperCase();\n`,
      "handler.ts": `import { shout } from "./lib.ts";
type Hook = { id: string; channel: string; body: string; body_text?: string; headers: Record<string, string> };
export default async function (hook: Hook, ctx: { attempt: number; handler: string }) {
  const event = JSON.parse(hook.body_text ?? "{}");
  return { seen: hook.id, event: shout(event.kind), attempt: ctx.attempt, handler: ctx.handler, sig: hook.headers["x-sig"] };
}
`,
    });
    const t = createRunnerApp({ handlers: [moduleHandler("mod", join(dir, "handler.ts"))], channels: [{ name: "c", handlers: ["mod"] }] });
    const id = await t.send("c", '{"kind":"paid"}', { "x-sig": "abc" });
    await t.runner.tick();
    expect((await t.hook(id)).status).toBe("handled");
    const [a] = await t.attempts(id);
    expect(a.outcome).toBe("succeeded");
    expect(JSON.parse(a.excerpt)).toEqual({ seen: id, event: "PAID", attempt: 1, handler: "mod", sig: "abc" });
  });

  test("throwing is a failure with the thrown message; a JavaScript file works too", async () => {
    const dir = files({
      "fail.js": `let n = 0;\nexport default (hook) => { n++; if (n < 2) throw new Error("database down for " + hook.channel); return "ok on try " + n; };\n`,
    });
    const t = createRunnerApp({ handlers: [moduleHandler("mod", join(dir, "fail.js"))], channels: [{ name: "c", handlers: ["mod"] }] });
    const id = await t.send("c");
    await t.runner.tick();
    expect((await t.attempts(id))[0]).toMatchObject({ outcome: "failed", error: "database down for c" });
    t.clock.advance(1000);
    await t.runner.tick();
    expect((await t.attempts(id))[1]).toMatchObject({ outcome: "succeeded", excerpt: "ok on try 2" });
    expect((await t.hook(id)).status).toBe("handled");
  });

  test("a missing file, or one without a default function, fails the attempt and is retried", async () => {
    const dir = files({ "no-default.ts": "export const x = 1;\n" });
    const t = createRunnerApp({
      handlers: [moduleHandler("missing", join(dir, "later.ts")), moduleHandler("nodefault", join(dir, "no-default.ts"))],
      channels: [{ name: "c", handlers: ["missing", "nodefault"] }],
    });
    const id = await t.send("c");
    await t.runner.tick();
    const [missing, noDefault] = await t.attempts(id);
    expect(missing.outcome).toBe("failed");
    expect(missing.error).toContain("could not load");
    expect(noDefault.error).toContain("has no default export function");
    // The file appears before the next attempt: it is loaded then.
    writeFileSync(join(dir, "later.ts"), "export default () => 'now here';\n");
    t.clock.advance(1000);
    await t.runner.tick();
    expect((await t.attempts(id)).find((a) => a.handler === "missing" && a.attempt === 2)).toMatchObject({ outcome: "succeeded" });
  });

  test("a function that does not settle within the timeout fails the attempt", async () => {
    const dir = files({ "hang.ts": "export default () => new Promise(() => {});\n" });
    const t = createRunnerApp({
      handlers: [moduleHandler("hang", join(dir, "hang.ts"), { timeout: "100ms" })],
      channels: [{ name: "c", handlers: ["hang"] }],
    });
    const id = await t.send("c");
    await t.runner.tick();
    expect((await t.attempts(id))[0]).toMatchObject({ outcome: "failed", error: "no result within 100 ms" });
  });

  test("a relative path is resolved against the config file's directory", async () => {
    const dir = files({ "handlers/h.ts": "export default (hook: { id: string }) => 'got ' + hook.id;\n" });
    const config = buildConfig({ handlers: [moduleHandler("mod", "handlers/h.ts")] });
    const handler = createHandlers(config.handlers, dir).get("mod")!;
    const hook: RawHook = {
      id: "01aaaaaaaaaaaaaaaaaaaaaaaa",
      eventType: "",
      channel: "c",
      status: "pending",
      method: "POST",
      query: "",
      headers: {},
      body: new Uint8Array(),
      ip: "127.0.0.1",
      createdAt: 0,
      finalizedAt: null,
    };
    expect(await handler.run(hook, { attempt: 1, now: 0 })).toEqual({ ok: true, excerpt: "got 01aaaaaaaaaaaaaaaaaaaaaaaa", error: "" });
  });
});
