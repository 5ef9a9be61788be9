import { expect, test } from "bun:test";
import { SQL } from "bun";
import { freshDatabase, postgresCluster } from "../helpers/postgres";

test("the test cluster starts once and hands out separate databases on PostgreSQL 15 or newer", async () => {
  const cluster = await postgresCluster();
  expect(await postgresCluster()).toBe(cluster);
  const [a, b] = await Promise.all([freshDatabase(), freshDatabase()]);
  expect(a).not.toBe(b);
  const one = new SQL(a!);
  const two = new SQL(b!);
  try {
    const [{ version }] = await one`select version()`;
    expect(Number(/^PostgreSQL (\d+)/.exec(version)?.[1])).toBeGreaterThanOrEqual(15);
    const [{ server_version_num }] = await one`show server_version_num`;
    expect(Number(server_version_num)).toBeGreaterThanOrEqual(150000);
    await one`create table only_here (x int)`;
    const [{ found }] = await two`select to_regclass('only_here') is not null as found`;
    expect(found).toBe(false);
  } finally {
    await Promise.all([one.close(), two.close()]);
  }
});

test("the cluster asks for the password: a wrong one is refused", async () => {
  const url = new URL(await freshDatabase());
  url.password = "not-the-password";
  const wrong = new SQL(url.toString(), { max: 1 });
  try {
    const error = await wrong`select 1`.then(
      () => undefined,
      (e: unknown) => e as { errno?: string; message: string },
    );
    expect(error).toBeDefined();
    // 28P01: invalid_password
    expect({ errno: error!.errno, message: error!.message }).toMatchObject({ errno: "28P01" });
  } finally {
    await wrong.close();
  }
});
