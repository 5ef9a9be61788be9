import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/sqlite/open";
import { lockDataFile } from "../../src/db/sqlite/lock";

const dir = mkdtempSync(join(tmpdir(), "mailroom-perms-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the data file, its WAL, shared memory and lock are readable by their owner only, in a folder of the owner's", () => {
  const path = join(dir, "data", "mailroom.db");
  const lock = lockDataFile(path);
  const db = openDatabase({ path, durability: "normal" });
  db.$client.run("CREATE TABLE t (x)");
  db.$client.run("INSERT INTO t VALUES (1)");
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}.lock`]) {
    expect({ file, mode: (statSync(file).mode & 0o777).toString(8) }).toEqual({ file, mode: "600" });
  }
  expect((statSync(join(dir, "data")).mode & 0o777).toString(8)).toBe("700");
  db.$client.close();
  lock.close();
});
