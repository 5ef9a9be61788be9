/**
 * `[dashboard] auth` left unset (issue 32, item 7), the executable as a process: "none" on a laptop
 * (every listener on loopback, no [[users]], no user stored), a session required otherwise, and an
 * install whose admin was made through the setup link keeps requiring sign-in after the upgrade.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildBinary, removeTempDirs, startProcess, tempDir, type Running } from "../helpers/binary";

const SETUP = /(http:\/\/\S+)\/ui\/setup#(setup_\S+)/;
let bin: string;

beforeAll(async () => {
  bin = await buildBinary();
}, 120_000);
afterAll(removeTempDirs);

/** Starts the executable in `dir` with `toml` as its config. */
async function start(dir: string, toml: string): Promise<Running> {
  await Bun.write(join(dir, "mailroom.toml"), `[storage]\npath = "data/m.db"\n${toml}`);
  return startProcess([bin, "--config", "mailroom.toml"], dir);
}

async function stop(run: Running): Promise<void> {
  run.proc.kill("SIGTERM");
  await run.proc.exited;
}

const get = (run: Running, path: string) => fetch(`${run.url}${path}`);

describe("[dashboard] auth left unset", () => {
  test("on loopback with no user anywhere: no sign-in, the start line prints the dashboard's URL, not a setup link", async () => {
    const run = await start(tempDir("mailroom-authdefault-"), `[server]\nport = 0\n`);
    try {
      expect(run.output()).toContain(`dashboard: ${run.url}/ui/ (no sign-in: [dashboard] auth = "none", this machine only)`);
      expect(run.output()).not.toContain("/ui/setup#");
      const session = await get(run, "/ui/api/session");
      expect(session.status).toBe(200);
      expect(await session.json()).toEqual({ email: "local", role: "admin", auth: "none" });
      expect((await get(run, "/ui/api/hooks")).status).toBe(200);
      // The management API still wants its bearer token.
      expect((await get(run, "/v1/hooks")).status).toBe(401);
    } finally {
      await stop(run);
    }
  }, 60_000);

  test("an admin made through the setup link keeps requiring sign-in after the upgrade", async () => {
    const dir = tempDir("mailroom-authdefault-");
    // Before: the password default printed a setup link, and the first admin was made with it.
    let run = await start(dir, `[server]\nport = 0\n[dashboard]\nauth = "password"\n`);
    try {
      const [, , token] = SETUP.exec(run.output())!;
      const made = await fetch(`${run.url}/ui/api/setup`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: run.url },
        body: JSON.stringify({ token, email: "ada@example.com", password: "correct horse battery" }),
      });
      expect(made.status).toBe(200);
      await stop(run);
      // After: auth unset, everything on loopback, no [[users]]; but a user is stored.
      run = await start(dir, `[server]\nport = 0\n`);
      expect(run.output()).not.toContain("no sign-in");
      expect((await get(run, "/ui/api/session")).status).toBe(204);
      expect((await get(run, "/ui/api/hooks")).status).toBe(401);
    } finally {
      await stop(run);
    }
  }, 60_000);

  test("with [[users]] configured, or a listener off loopback, a session is required and a setup link or sign-in is asked", async () => {
    const users = await start(
      tempDir("mailroom-authdefault-"),
      `[server]\nport = 0\n[[users]]\nemail = "ada@example.com"\nrole = "admin"\npassword_hash = "$argon2id$v=19$m=65536,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"\n`,
    );
    try {
      expect(users.output()).not.toContain("no sign-in");
      expect((await get(users, "/ui/api/hooks")).status).toBe(401);
    } finally {
      await stop(users);
    }
    const open = await start(tempDir("mailroom-authdefault-"), `[server]\nhost = "0.0.0.0"\nport = 0\n`);
    try {
      expect(open.output()).not.toContain("no sign-in");
      expect(open.output()).toMatch(SETUP);
      expect((await fetch(`${open.url.replace("0.0.0.0", "127.0.0.1")}/ui/api/hooks`)).status).toBe(401);
    } finally {
      await stop(open);
    }
  }, 60_000);

  test('check-config refuses an explicit "none" off loopback with a clear message', async () => {
    const dir = tempDir("mailroom-authdefault-");
    await Bun.write(join(dir, "mailroom.toml"), `[server]\nhost = "0.0.0.0"\n[dashboard]\nauth = "none"\n`);
    const proc = Bun.spawn([bin, "check-config", "--config", "mailroom.toml"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    expect(await proc.exited).toBe(1);
    expect(await new Response(proc.stderr).text()).toContain(
      'dashboard.auth: "none" needs every listener on a loopback address (127.0.0.1, ::1, localhost); 0.0.0.0 is not: use "password"',
    );
  }, 60_000);
});
