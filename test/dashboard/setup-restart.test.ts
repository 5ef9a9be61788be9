import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { removeTempDirs } from "../helpers/binary";
import { serveFromSource } from "../cli/run";

afterAll(removeTempDirs);
setDefaultTimeout(30_000);

const LINK = /(http:\/\/\S+)\/ui\/setup#(setup_\S+)/;

test("the setup link printed at start-up is printed again, and still works, after a restart", async () => {
  // On loopback with no user the dashboard would open without sign-in: the setup link is for "password".
  const password = { dashboard: { auth: "password" } };
  let run = await serveFromSource(password);
  const dir = run.dir;
  const check = (token: string) =>
    fetch(`${run.url}/ui/api/setup/check`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: run.url },
      body: JSON.stringify({ token }),
    });
  try {
    const [, , token] = LINK.exec(run.output())!;
    expect(run.output()).toContain("valid until ");
    await run.stop();
    run = await serveFromSource({ ...password, storage: { path: join(dir, "data", "mailroom.db") } });
    const [, base, again] = LINK.exec(run.output())!;
    expect(again).toBe(token!);
    expect(base).toBe(run.url);
    expect((await check(token!)).status).toBe(200);
    const created = await fetch(`${run.url}/ui/api/setup`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: run.url },
      body: JSON.stringify({ token, email: "ada@example.com", password: "correct horse battery" }),
    });
    expect(created.status).toBe(200);
    // Used: no link at the next start, and the credentials file no longer holds it.
    await run.stop();
    run = await serveFromSource({ ...password, storage: { path: join(dir, "data", "mailroom.db") } });
    expect(run.output()).not.toContain("/ui/setup#");
    expect((await Bun.file(join(dir, "data", "mailroom.credentials.json")).json()).setup).toBeUndefined();
  } finally {
    await run.stop();
  }
});
