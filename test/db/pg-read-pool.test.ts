import { expect, test } from "bun:test";
import { openPostgres, openReadPool, PostgresOpenError } from "../../src/db/pg/open";
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
