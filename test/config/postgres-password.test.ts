import { afterAll, expect, test } from "bun:test";
import { postgresTarget } from "../../src/config/postgres-url";
import { removeTempDirs } from "../helpers/binary";
import { freshDatabase } from "../helpers/postgres";
import { runCli } from "../cli/run";

// `?password=` in [storage] url is honoured, as Bun.sql reads it, and never printed.

afterAll(removeTempDirs);

test("check-config connects with ?password= and names the server without it; a wrong one is refused by the server, not printed", async () => {
  const given = new URL(await freshDatabase());
  const password = decodeURIComponent(given.password);
  given.password = "";
  const server = `postgres://${given.username}@${given.hostname}:${given.port}${given.pathname}`;
  const check = (url: string) => runCli(["check-config"], { env: { MAILROOM_DATABASE_URL: url, MAILROOM_CONFIG: undefined } });

  const ok = await check(`${server}?password=${encodeURIComponent(password)}`);
  expect({ code: ok.code, stdout: ok.stdout, stderr: ok.stderr }).toEqual({ code: 0, stdout: `built-in defaults: ok (${server} answers)\n`, stderr: "" });

  const wrong = await check(`${server}?password=Wr0ng%2BPass+word`);
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toBe(
    `mailroom: built-in defaults: [storage] url: cannot connect to PostgreSQL at ${given.hostname}:${given.port} (database ${given.pathname.slice(1)}, user ${given.username}): password authentication failed for user "${given.username}" (28P01)\n`,
  );
  expect(wrong.stdout + wrong.stderr).not.toMatch(/Wr0ng/);
});

test("the user, port and database Bun.sql takes from the query string are the ones named; every spelling of the password is a secret", () => {
  expect(postgresTarget("postgres://me@db.example:5432/app?user=you&port=6543&dbname=other&password=a%2Bb+c")).toEqual({
    host: "db.example",
    port: "6543",
    database: "other",
    user: "you",
    secrets: ["a+b c", "a%2Bb+c"],
  });
  expect(postgresTarget("postgres://me:p%40ss@db.example/app").secrets).toEqual(["p%40ss", "p@ss"]);
});
