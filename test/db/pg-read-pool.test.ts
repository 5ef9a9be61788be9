import { expect, test } from "bun:test";
import { SQL } from "bun";
import { openPostgres, openReadPool, PostgresOpenError } from "../../src/db/pg/open";
import { lostConnection, pgTransactor } from "../../src/db/pg/transactor";
import { freshDatabase } from "../helpers/postgres";

/** A log that keeps its warnings. */
function warnings() {
  const said: { message: string; fields?: Record<string, unknown> }[] = [];
  return { said, warn: (message: string, fields?: Record<string, unknown>) => void said.push({ message, fields }) };
}

// Behind a pooler such as PgBouncer a parameter sent at connection is refused, or dropped when the
// pooler is told to ignore it. An instance must start either way, its searches planned in a
// transaction each, and say so once.
test("the pool of reads is opened with plan_cache_mode, and its connections report it", async () => {
  const url = await freshDatabase();
  const log = warnings();
  const reads = await openReadPool(url, log);
  try {
    expect(reads).toBeDefined();
    expect(((await reads!.unsafe("SHOW plan_cache_mode")) as { plan_cache_mode: string }[])[0]!.plan_cache_mode).toBe("force_custom_plan");
    expect(log.said).toEqual([]);
  } finally {
    await reads?.close({ timeout: 0 });
  }
});

test("a server that refuses the parameter at connection: no pool of reads, one warning, the URL's password never said", async () => {
  const log = warnings();
  const refused = async () => {
    throw new PostgresOpenError("unreachable", 'cannot connect to db:6432 database "mailroom" as "mailroom": unsupported startup parameter: plan_cache_mode');
  };
  expect(await openReadPool("postgres://mailroom:s3cret-pw@db:6432/mailroom", log, refused)).toBeUndefined();
  expect(log.said).toHaveLength(1);
  expect(log.said[0]!.message).toContain("transaction each");
  expect(JSON.stringify(log.said)).toContain("unsupported startup parameter");
  expect(JSON.stringify(log.said)).not.toContain("s3cret-pw");
});

test("a pooler that drops the parameter: the pool is closed and not used, one warning", async () => {
  const url = await freshDatabase();
  const log = warnings();
  let opened: Awaited<ReturnType<typeof openPostgres>> | undefined;
  // What a pooler with ignore_startup_parameters gives: connections without the setting.
  const dropped = async (u: string) => (opened = await openPostgres(u, { max: 1 }));
  expect(await openReadPool(url, log, dropped)).toBeUndefined();
  expect(log.said).toHaveLength(1);
  expect(log.said[0]!.fields).toEqual({ plan_cache_mode: "auto" });
  // Closed: a statement on it fails.
  await expect(opened!.unsafe("SELECT 1")).rejects.toThrow();
});

// A pooler put in front of a running instance, or a pool of reads that lost its server: reads go on
// through the main pool, and the pool of reads is tried again later.
test("a read the pool of reads cannot connect for runs in a transaction of the main pool, as do the next ones for a while; a statement's own error is thrown", async () => {
  const url = await freshDatabase();
  const main = await openPostgres(url, { max: 2 });
  const lost: string[] = [];
  let tried = 0;
  // Nothing listens on port 1: every connection of this pool is refused.
  const unreachable = new SQL(url.replace(/:\d+\//, ":1/"), { max: 1, connectionTimeout: 2 });
  const reads = { unsafe: (text: string, params?: unknown[]) => (tried++, unreachable.unsafe(text, params)) } as unknown as SQL;
  try {
    const t = pgTransactor(main, reads, (error) => void lost.push((error as Error).message));
    // Three reads in flight when the pool fails: each answered, the loss told once.
    const answers = await Promise.all([7, 8, 9].map((n) => t.read("SELECT current_setting('plan_cache_mode') AS mode, $1::int AS n", [n])));
    expect(answers).toEqual([7, 8, 9].map((n) => [{ mode: "force_custom_plan", n }]));
    expect(await t.read("SELECT 2 AS n")).toEqual([{ n: 2 }]);
    expect({ tried, lost: lost.length }).toEqual({ tried: 3, lost: 1 });
    // A statement's own error is the caller's, from the main pool as from the pool of reads.
    await expect(t.read("SELEC 1")).rejects.toThrow(/syntax error/);
    expect(lostConnection({ code: "ERR_POSTGRES_SYNTAX_ERROR", errno: "42601", severity: "ERROR" })).toBe(false);
    expect(lostConnection({ code: "ERR_POSTGRES_SERVER_ERROR", errno: "08P01", severity: "FATAL" })).toBe(true);
  } finally {
    await Promise.allSettled([main.close({ timeout: 0 }), unreachable.close({ timeout: 0 })]);
  }
});
