import { expect, test } from "bun:test";
import type { SQL } from "bun";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/bun-sql";
import { eq } from "drizzle-orm";
import { migratePostgres } from "../../src/db/pg/migrate";
import { openPostgres, PostgresOpenError, redactPostgresUrl } from "../../src/db/pg/open";
import * as schema from "../../src/schema/pg";
import { embeddedMigrations } from "../../src/db/migrations.macro";
import { freshDatabase } from "../helpers/postgres";

const TABLES = (Object.values(schema) as unknown[])
  .filter((t) => t instanceof PgTable)
  .map((t) => getTableConfig(t as PgTable).name)
  // Tables made by custom migrations (drizzle-pg/0002_search_index.sql), outside drizzle's schema.
  .concat(["hook_search"])
  .sort();

test("three instances starting together migrate once: each migration recorded once, every table there", async () => {
  const url = await freshDatabase();
  const clients = await Promise.all([1, 2, 3].map(() => openPostgres(url, { max: 2 })));
  try {
    await Promise.all(clients.map((sql) => migratePostgres(sql)));
    const sql = clients[0]!;
    const applied = await sql`SELECT hash, count(*)::int AS n FROM drizzle.__drizzle_migrations GROUP BY hash ORDER BY hash`;
    const expected = embeddedMigrations("drizzle-pg")
      .map((m) => ({ hash: m.hash, n: 1 }))
      .sort((a, b) => a.hash.localeCompare(b.hash));
    expect([...applied]).toEqual(expected);
    const tables = await sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`;
    expect(tables.map((r: { table_name: string }) => r.table_name).sort()).toEqual(TABLES);
    // Once more, later: nothing to do, nothing recorded twice.
    await migratePostgres(sql);
    const [{ n }] = await sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
    expect(n).toBe(expected.length);
  } finally {
    await Promise.all(clients.map((sql) => sql.close()));
  }
});

test("a hook's body keeps every byte and its headers keep their text, key order included", async () => {
  const sql = await openPostgres(await freshDatabase());
  try {
    await migratePostgres(sql);
    const db = drizzle({ client: sql, schema });
    const body = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7 + 3) % 256));
    expect(new Set(body).size).toBe(256);
    const headers = '{"z-last":"1","a-first":"2","Content-Type":"x","dup":"1","dup":"2","n":1.50,"é":"\\u00e9"}';
    await db.insert(schema.hooks).values({
      id: "01hzzzzzzzzzzzzzzzzzzzzzzz",
      channel: "c",
      status: "pending",
      method: "POST",
      query: "",
      headers,
      body,
      ip: "127.0.0.1",
      createdAt: Date.now(),
    });
    const [row] = await db.select().from(schema.hooks).where(eq(schema.hooks.id, "01hzzzzzzzzzzzzzzzzzzzzzzz"));
    expect(Buffer.isBuffer(row!.body)).toBe(true);
    expect(Buffer.compare(row!.body, body)).toBe(0);
    expect(row!.headers).toBe(headers);
    // And through Bun.sql directly, as a bulk insert would write it.
    await sql`INSERT INTO hooks ${sql([{ id: "01hzzzzzzzzzzzzzzzzzzzzzzy", channel: "c", status: "pending", method: "POST", query: "", headers, body, ip: "::1", created_at: 1 }])}`;
    const [raw] = await sql`SELECT body, headers FROM hooks WHERE id = ${"01hzzzzzzzzzzzzzzzzzzzzzzy"}`;
    expect(Buffer.compare(Buffer.from(raw.body), body)).toBe(0);
    expect(raw.headers).toBe(headers);
  } finally {
    await sql.close();
  }
});

test("a server that cannot be reached is named in the error, its password is not", async () => {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  const url = `postgres://mailroom:Sup3r%2FSecret@127.0.0.1:${port}/mailroom`;
  const error = await openPostgres(url).then(
    () => undefined,
    (e: unknown) => e as PostgresOpenError,
  );
  expect(error).toBeInstanceOf(PostgresOpenError);
  expect(error!.reason).toBe("unreachable");
  expect(error!.message).toContain(`127.0.0.1:${port}`);
  expect(error!.message).toMatch(/Failed to connect|refused/i);
  const everything = `${error!.message} ${error!.stack} ${JSON.stringify(error)} ${Bun.inspect(error)}`;
  expect(everything).not.toContain("Sup3r");
  expect(redactPostgresUrl(url)).toBe(`postgres://mailroom@127.0.0.1:${port}/mailroom`);
});

test("a wrong password and a bad URL are told apart, without the password", async () => {
  const good = new URL(await freshDatabase());
  good.password = "Wr0ngPassw0rd";
  const wrong = await openPostgres(good.toString()).then(
    () => undefined,
    (e: unknown) => e as PostgresOpenError,
  );
  expect(wrong).toMatchObject({ reason: "unreachable", code: "28P01" });
  expect(wrong!.message).toContain("password authentication failed");
  expect(Bun.inspect(wrong)).not.toContain("Wr0ngPassw0rd");
  const invalid = await openPostgres("postgres://u:Wr0ngPassw0rd@[nope/db").then(
    () => undefined,
    (e: unknown) => e as PostgresOpenError,
  );
  expect(invalid).toMatchObject({ reason: "invalid_url" });
  expect(Bun.inspect(invalid)).not.toContain("Wr0ngPassw0rd");
});

test("migratePostgres refuses a server older than 15", async () => {
  // A client whose every query answers an old version number: the check needs no old server.
  const old = Object.assign(async () => [{ server_version_num: "140011", server_version: "14.11" }], {}) as unknown as SQL;
  await expect(migratePostgres(old)).rejects.toThrow("PostgreSQL 14.11 is too old: Mailroom needs PostgreSQL 15 or newer");
});
