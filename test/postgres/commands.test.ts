/**
 * The commands on PostgreSQL: check-config and serve say clearly when the database cannot be
 * reached, without the password; `mailroom migrate` applies the migrations without serving.
 */
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildBinary, tempDir } from "../helpers/binary";
import { newDatabase } from "../helpers/instances";

const SECRET = "s3cret-never-printed";

async function run(args: string[], config: string, env: Record<string, string> = {}) {
  const dir = tempDir("mailroom-pgcmd-");
  writeFileSync(join(dir, "mailroom.toml"), config);
  const proc = Bun.spawn([await buildBinary(), ...args, "--config", join(dir, "mailroom.toml")], {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, MAILROOM_DATABASE_URL: "", ...env },
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { out, err, code };
}

/** A port nobody listens on. */
function closedPort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

test("check-config and serve say the database cannot be reached, naming host and port, never the password", async () => {
  const port = closedPort();
  const config = `[storage]\nurl = "postgres://mailroom:${SECRET}@127.0.0.1:${port}/mailroom"\n`;
  for (const args of [["check-config"], ["serve", "--port", "0"], ["migrate"]]) {
    const r = await run(args, config);
    expect({ args, code: r.code }).toEqual({ args, code: 1 });
    expect(r.out + r.err).toContain(`127.0.0.1:${port}`);
    expect(r.err).toMatch(/cannot connect/);
    expect(r.out + r.err).not.toContain(SECRET);
  }
});

test("a wrong password is refused clearly, and the URL may come from url_env or MAILROOM_DATABASE_URL", async () => {
  const url = new URL(await newDatabase());
  const good = url.toString();
  url.password = SECRET;
  const viaEnv = await run(["check-config"], `[storage]\nurl_env = "DB_URL"\n`, { DB_URL: url.toString() });
  expect(viaEnv.code).toBe(1);
  expect(viaEnv.err).toMatch(/cannot connect .*password|authentication/i);
  expect(viaEnv.out + viaEnv.err).not.toContain(SECRET);
  const ok = await run(["check-config"], "", { MAILROOM_DATABASE_URL: good });
  expect(ok.code).toBe(0);
  expect(ok.out).toMatch(/ok \(postgres:\/\/.*answers\)/);
  expect(ok.out).not.toContain(new URL(good).password);
});

test("mailroom migrate applies the migrations and exits; serving afterwards finds nothing to do", async () => {
  const url = await newDatabase();
  const first = await run(["migrate"], `[storage]\nurl = "${url}"\n`);
  expect(first.code).toBe(0);
  expect(first.out).toContain("is migrated");
  const sql = new SQL(url);
  const tables = (await sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`).map((r: { table_name: string }) => r.table_name);
  const applied = await sql`SELECT COUNT(*)::int AS n FROM drizzle.__drizzle_migrations`;
  await sql.close();
  expect(tables).toEqual(expect.arrayContaining(["hooks", "channels", "channel_counts", "attempts", "translate_accounts", "users"]));
  expect((await run(["migrate"], `[storage]\nurl = "${url}"\n`)).code).toBe(0);
  const again = new SQL(url);
  expect((await again`SELECT COUNT(*)::int AS n FROM drizzle.__drizzle_migrations`)[0].n).toBe(applied[0].n);
  await again.close();
});

test("mailroom migrate on SQLite migrates the data file and exits", async () => {
  const dir = tempDir("mailroom-migrate-");
  const r = await run(["migrate"], `[storage]\npath = "${join(dir, "m.db")}"\n`);
  expect(r.code).toBe(0);
  expect(r.out).toContain("m.db is migrated");
});

test("text a PostgreSQL value cannot hold (U+0000) is refused with 400 wherever it can arrive, never a 500", async () => {
  const { startInstance, killInstances } = await import("../helpers/instances");
  const raw = { translate: { accounts: [{ id: 1, balance: 10, api_keys: ["customer-key-1"] }] } };
  const i = await startInstance(await newDatabase(), raw);
  try {
    const origin = { origin: i.url };
    expect((await i.call("POST", "/ui/api/session", { email: "a\u0000@b.c", password: "whatever-long" }, origin)).status).toBe(400);
    const basicAuth = { authorization: `Basic ${btoa("customer-key-1:")}` };
    const order = await i.call("POST", "/api/v1/translate", { source_language: "en", target_languages: ["de"], text: "a\u0000b" }, basicAuth);
    expect([order.status, order.json.code, order.json.parameters.field]).toEqual([400, "INVALID_REQUEST", "text"]);
    expect((await i.call("GET", "/v1/hooks?after=a%00b")).status).toBe(400);
    // A caught hook keeps it: bodies are bytes, headers and query are stored escaped.
    expect((await i.post("nul", new Uint8Array([97, 0, 98]), { "x-nul": "a" })).status).toBe(200);
  } finally {
    await killInstances();
  }
});

test("token reset on PostgreSQL re-issues the local token there; the old one stops working on every instance", async () => {
  const { startInstance, killInstances, eventually } = await import("../helpers/instances");
  const url = await newDatabase();
  const a = await startInstance(url);
  const b = await startInstance(url);
  try {
    const old = JSON.parse(await Bun.file(join(a.dir, "data/mailroom.credentials.json")).text()).token as string;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await b.call("GET", "/v1/channels", undefined, bearer(old))).status).toBe(200);
    const proc = Bun.spawn([await buildBinary(), "token", "reset", "--config", join(a.dir, "mailroom.toml")], { cwd: a.dir, stdout: "pipe", stderr: "pipe" });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    const fresh = out.trim();
    for (const i of [a, b]) {
      await eventually(async () => (await i.call("GET", "/v1/channels", undefined, bearer(old))).status === 401, 10_000, "the old token refused");
      expect((await i.call("GET", "/v1/channels", undefined, bearer(fresh))).status).toBe(200);
    }
  } finally {
    await killInstances();
  }
});
