import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { existsSync, realpathSync } from "node:fs";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { runCli, serveFromSource } from "./run";

afterAll(removeTempDirs);
setDefaultTimeout(30_000);

const CONFIGURED = "configured-token-123456";

test("the local token works beside configured [[api_keys]], survives a restart, and token reset re-issues it in a running Mailroom", async () => {
  const config = { api_keys: [{ label: "ci", token: CONFIGURED }] };
  let run = await serveFromSource(config);
  const dir = run.dir;
  const file = join(dir, "data", "mailroom.credentials.json");
  const status = async (token: string) => (await fetch(`${run.url}/v1/channels`, { headers: { authorization: `Bearer ${token}` } })).status;
  try {
    const first = (await Bun.file(file).json()).token as string;
    expect(run.output()).toContain(`Authorization: Bearer ${first}`);
    expect(await status(first)).toBe(200);
    expect(await status(CONFIGURED)).toBe(200);

    // Restart on the same data: the same token works and is not printed again.
    await run.stop();
    run = await serveFromSource({ ...config, storage: { path: join(dir, "data", "mailroom.db") } });
    expect(await status(first)).toBe(200);
    expect(run.output()).not.toContain(first);

    const reset = await runCli(["token", "reset", "--config", join(run.dir, "mailroom.toml")], { cwd: run.dir });
    expect(reset.code).toBe(0);
    const second = reset.stdout.trim();
    expect(second).toMatch(/^mr_/);
    expect(second).not.toBe(first);
    expect((await Bun.file(join(dir, "data", "mailroom.credentials.json")).json()).token).toBe(second);
    // The old token stops at once, before anyone presents the new one.
    expect(await status(first)).toBe(401);
    expect(await status(second)).toBe(200);
    expect(await status(CONFIGURED)).toBe(200);
    const shown = await runCli(["token", "show", "--config", join(run.dir, "mailroom.toml")], { cwd: run.dir });
    expect(shown.stdout).toBe(`${second}\n`);
  } finally {
    await run.stop();
  }
});

test("token create stores a key in the running Mailroom's database and prints its token once: a relay key gets 403, a key without scopes full access", async () => {
  const run = await serveFromSource({ api_keys: [{ label: "ci", token: CONFIGURED }] });
  const toml = join(run.dir, "mailroom.toml");
  const status = async (token: string) => (await fetch(`${run.url}/v1/channels`, { headers: { authorization: `Bearer ${token}` } })).status;
  try {
    const relay = await runCli(["token", "create", "--label", "laptop", "--scope", "relay", "--channel", "stripe", "--config", toml], { cwd: run.dir });
    expect([relay.code, relay.stderr]).toEqual([
      0,
      'created API key "laptop" (a relay key for stripe); the token below is shown once, only its hash is stored\n',
    ]);
    const token = relay.stdout.trim();
    expect(token).toMatch(/^mr_/);
    expect(await status(token)).toBe(403);
    const full = await runCli(["token", "create", "--label", "deploy", "--config", toml], { cwd: run.dir });
    expect(full.code).toBe(0);
    expect(await status(full.stdout.trim())).toBe(200);

    const again = await runCli(["token", "create", "--label", "laptop", "--scope", "relay", "--channel", "stripe", "--config", toml], { cwd: run.dir });
    expect([again.code, again.stdout, again.stderr]).toEqual([1, "", 'mailroom: token create: API key "laptop" exists already\n']);
    const taken = await runCli(["token", "create", "--label", "ci", "--config", toml], { cwd: run.dir });
    expect(taken.code).toBe(1);
    for (const args of [
      ["--label", "x", "--scope", "relay"],
      ["--label", "x", "--channel", "stripe"],
      ["--label", "x", "--scope", "admin", "--channel", "s"],
      ["--scope", "relay"],
    ]) {
      const bad = await runCli(["token", "create", ...args, "--config", toml], { cwd: run.dir });
      expect({ args, code: bad.code, out: bad.stdout }).toEqual({ args, code: 2, out: "" });
    }
  } finally {
    await run.stop();
  }
});

test("token create --channels makes a key that sees those channels only; with --scope read it only reads", async () => {
  const run = await serveFromSource({ api_keys: [{ label: "ci", token: CONFIGURED }] });
  const toml = join(run.dir, "mailroom.toml");
  const call = async (token: string, path: string, method = "GET") =>
    fetch(`${run.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({
      status: r.status,
      json: (await r.json()) as any,
    }));
  try {
    for (const channel of ["stripe-live", "orders"]) expect((await fetch(`${run.url}/?channel=${channel}`, { method: "POST", body: "{}" })).status).toBe(200);
    const made = await runCli(["token", "create", "--label", "payments", "--channels", "stripe-*,paddle", "--config", toml], { cwd: run.dir });
    expect([made.code, made.stderr]).toEqual([
      0,
      'created API key "payments" (reads and acts on channels stripe-*, paddle only); the token below is shown once, only its hash is stored\n',
    ]);
    const token = made.stdout.trim();
    expect((await call(token, "/v1/channels")).json.map((c: { name: string }) => c.name)).toEqual(["stripe-live"]);
    const [hook] = (await call(token, "/v1/hooks")).json;
    expect(hook.channel).toBe("stripe-live");
    expect((await call(token, `/v1/hooks/${hook.id}/discard`, "POST")).status).toBe(200);
    const reader = await runCli(["token", "create", "--label", "payments-ro", "--channels", "stripe-*", "--scope", "read", "--config", toml], { cwd: run.dir });
    expect(reader.stderr).toContain("(reads channels stripe-* only)");
    expect((await call(reader.stdout.trim(), `/v1/hooks/${hook.id}`)).status).toBe(200);
    expect((await call(reader.stdout.trim(), `/v1/hooks/${hook.id}/retry`, "POST")).status).toBe(403);
    const keys = (await call(CONFIGURED, "/v1/channels")).status;
    expect(keys).toBe(200);
    for (const args of [
      ["--label", "x", "--channels", "Bad!"],
      ["--label", "x", "--channels", "a", "--channel", "b"],
      ["--label", "x", "--scope", "read"],
      ["--label", "x", "--scope", "relay", "--channels", "a"],
    ]) {
      const bad = await runCli(["token", "create", ...args, "--config", toml], { cwd: run.dir });
      expect({ args, code: bad.code, out: bad.stdout }).toEqual({ args, code: 2, out: "" });
    }
  } finally {
    await run.stop();
  }
});

test("in a folder without data, token show and token reset say where the data is expected and create nothing", async () => {
  const dir = tempDir("mailroom-nodata-");
  for (const sub of ["show", "reset"]) {
    const ran = await runCli(["token", sub], { cwd: dir });
    expect(ran.code).toBe(1);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toContain(`no Mailroom data here: ${join(realpathSync(dir), "data", "mailroom.db")} does not exist`);
    expect(ran.stderr).toContain("--config FILE");
    expect(ran.stderr).toContain("MAILROOM_DB=PATH");
    expect(existsSync(join(dir, "data"))).toBe(false);
  }
  const env = await runCli(["token", "reset"], { cwd: dir, env: { MAILROOM_DB: join(dir, "elsewhere.db") } });
  expect(env.stderr).toContain("(from MAILROOM_DB)");
  expect(existsSync(join(dir, "elsewhere.db"))).toBe(false);
});
