import { afterAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { buildConfig, parseToml } from "../../src/load-config";

afterAll(removeTempDirs);

test("mailroom.example.toml is a valid config", async () => {
  const file = join(import.meta.dir, "../../mailroom.example.toml");
  const raw = parseToml(await Bun.file(file).text(), file);
  // Every *_env variable the example names, set to a plausible secret.
  const env: Record<string, string> = {};
  for (const m of (await Bun.file(file).text()).matchAll(/_env\s*=\s*"([A-Z0-9_]+)"/g)) env[m[1]!] = "whsec_" + btoa("example-secret-value-32-bytes!!!");
  const config = buildConfig(raw, env);
  expect(config.channels.length).toBeGreaterThan(0);
});

test("mailroom.example.toml starts as it is, without any environment variable, and writes only into data/", async () => {
  const dir = tempDir("mailroom-example-");
  copyFileSync(join(import.meta.dir, "../../mailroom.example.toml"), join(dir, "mailroom.toml"));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/MAILROOM|GITHUB/.test(k))) as Record<string, string>;
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "../../src/main.ts"), "serve", "--port", "0"], {
    cwd: dir,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  try {
    const reader = proc.stdout.getReader();
    let text = "";
    while (!/listening on (http:\S+)/.test(text)) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`exited: ${text}${await new Response(proc.stderr).text()}`);
      text += new TextDecoder().decode(value);
    }
    const url = /listening on (http:\S+)/.exec(text)![1]!;
    const res = await fetch(`${url}/?channel=forms`, { method: "POST", body: "name=ada", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(200);
    const out = join(dir, "data", "hooks.jsonl");
    const deadline = Date.now() + 10_000;
    while (!existsSync(out) || !readFileSync(out, "utf8").includes("\n")) {
      if (Date.now() > deadline) throw new Error("the command handler wrote nothing into data/hooks.jsonl");
      await Bun.sleep(20);
    }
    expect(readdirSync(dir).sort()).toEqual(["data", "mailroom.toml"]);
    // What it wrote is ignored by the repository's .gitignore.
    const ignore = readFileSync(join(import.meta.dir, "../../.gitignore"), "utf8").split("\n");
    expect(ignore).toContain("data/");
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}, 30_000);
