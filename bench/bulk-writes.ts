/**
 * What a bulk retry writes per hook, and what catching writes, at the store (docs/benchmarks.md,
 * "What a retried hook writes"): N hooks caught through HookStore.insertHooks (batches of 100),
 * every tenth moved to failed, then those retried as a bulk job's batches do (HookStore.moveMany,
 * BULK_BATCH a transaction unless --batch says, newest first). For each phase: the write-ahead log's bytes per hook (SQLite:
 * the -wal file's frames, no checkpoint meanwhile; PostgreSQL: the WAL's insert position, after a
 * CHECKPOINT as a server that has run a while meets old pages) and the database's CPU per hook
 * (SQLite: this process's, getrusage; PostgreSQL: every process of the cluster, from /proc).
 * Figures of bytes do not depend on the machine's load; those of CPU do.
 *
 * On PostgreSQL (MAILROOM_TEST_PG_URL), the hooks table as migrated is measured beside the same
 * table with storage parameters asking for the body out of line (`toast`: toast_tuple_target = 256,
 * the body EXTERNAL, every other column MAIN), in databases of their own, alternating (`--rounds`):
 * its TOAST table's size says whether any body left the row.
 *
 *   bun run bench/bulk-writes.ts [--hooks 200000] [--postgres] [--rounds 2] [--batch 200] [--cache-kib 2000]
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SQL } from "bun";
import { monotonicFactory } from "ulid";
import { migratePostgres } from "../src/db/pg/migrate";
import { openPostgres } from "../src/db/pg/open";
import { createPostgresStorage } from "../src/db/pg/storage";
import { openDatabase } from "../src/db/sqlite/open";
import { createSqliteStorage } from "../src/db/sqlite/storage";
import type { Storage } from "../src/db/storage";
import type { NewHook } from "../src/hooks/store";
import { silentLog } from "../src/lib/log";
import { BULK_BATCH } from "../src/bulk/service";
import { fmt } from "./lib";
import { WORDS } from "./search-fill";

const { values: args } = parseArgs({
  options: {
    hooks: { type: "string", default: "200000" },
    postgres: { type: "boolean", default: false },
    rounds: { type: "string", default: "2" },
    batch: { type: "string", default: String(BULK_BATCH) },
    /** SQLite: the main connection's page cache in KiB, as `PRAGMA cache_size = -N` (SQLite's default 2,000). */
    "cache-kib": { type: "string" },
  },
});
const N = Number(args.hooks);
/** Hooks caught while the catching phase is measured (after the fill). */
const CAUGHT = 20_000;
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/** N hooks as a sender would send them (bodies of about 1 KiB), in id order, `chunk` at a time. */
async function generate(n: number, chunk: number, each: (rows: NewHook[]) => Promise<void>): Promise<void> {
  const next = monotonicFactory();
  let seed = 7;
  const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), (seed >>> 8) % k);
  const at = Date.now() - n;
  for (let done = 0; done < n; ) {
    const rows: NewHook[] = [];
    for (const end = Math.min(n, done + chunk); done < end; done++) {
      const type = ["order.paid", "order.created", "refund.created"][rnd(3)]!;
      const words = Array.from({ length: 120 }, () => WORDS[rnd(WORDS.length)]).join(" ");
      const channel = `shop-${rnd(20)}`;
      rows.push({
        id: next(at + done).toLowerCase(),
        channel,
        method: "POST",
        query: `channel=${channel}`,
        headers: `{"content-type":"application/json","user-agent":"Shop-Hookshot/1.0","x-shop-topic":"${type}"}`,
        body: Buffer.from(`{"type":"${type}","order":${done},"customer":"cus_${rnd(5000)}","note":"${words}"}`),
        ip: `203.0.113.${rnd(250)}`,
        createdAt: at + done,
        eventType: type,
      });
    }
    await each(rows);
  }
}

type Meter = { begin(): Promise<void>; end(): Promise<{ bytes: number; cpuUs: number }> };
type Result = { catchBytes: number; catchCpu: number; retryBytes: number; retryCpu: number; retried: number };

/** Catches N + CAUGHT hooks (the last CAUGHT measured), fails every tenth, retries those in a job's batches. */
async function measure(storage: Storage, meter: Meter, fail: (ids: string[]) => Promise<void>): Promise<Result> {
  const { hooks } = storage;
  const failed: string[] = [];
  let i = 0;
  let measured = false;
  let caught = { bytes: 0, cpuUs: 0 };
  await generate(N + CAUGHT, 100, async (rows) => {
    if (!measured && i >= N) await meter.begin(), (measured = true);
    await hooks.transaction(() => hooks.insertHooks(rows, () => []));
    for (const r of rows) if (i++ % 10 === 3) failed.push(r.id);
  });
  caught = await meter.end();
  await fail(failed);
  const ids = failed.reverse();
  await meter.begin();
  let retried = 0;
  const size = Number(args.batch);
  for (let k = 0; k < ids.length; k += size) {
    const batch = ids.slice(k, k + size);
    const moved = await hooks.transaction(() =>
      hooks.moveMany(batch, {
        from: ["failed", "discarded"],
        to: "pending",
        finalizedAt: null,
        event: { kind: "retried", actor: "api:bench", message: "", createdAt: Date.now() },
      }),
    );
    retried += moved.length;
  }
  const r = await meter.end();
  return { catchBytes: caught.bytes / CAUGHT, catchCpu: caught.cpuUs / CAUGHT, retryBytes: r.bytes / retried, retryCpu: r.cpuUs / retried, retried };
}

const print = (label: string, r: Result) =>
  console.log(
    `${label.padEnd(28)} caught: ${fmt(r.catchBytes, 0)} WAL bytes, ${fmt(r.catchCpu, 1)} µs CPU per hook; retried (${r.retried}): ${fmt(r.retryBytes, 0)} WAL bytes, ${fmt(r.retryCpu, 1)} µs CPU per hook  (load average ${load()})`,
  );

async function sqliteRound(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-bench-writes-"));
  try {
    const path = join(dir, "mailroom.db");
    const db = openDatabase({ path, durability: "normal" });
    const storage = createSqliteStorage(db, { path, durability: "normal" });
    const sql = db.$client;
    sql.run("PRAGMA wal_autocheckpoint = 1000");
    if (args["cache-kib"]) sql.run(`PRAGMA cache_size = -${Number(args["cache-kib"])}`);
    const wal = () => statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    const cpu = () => {
      const c = process.cpuUsage();
      return c.user + c.system;
    };
    let at = { wal: 0, cpu: 0 };
    // Checkpointed as SQLite does by default while filling; not at all while a phase is measured.
    const meter: Meter = {
      async begin() {
        sql.run("PRAGMA wal_checkpoint(TRUNCATE)");
        sql.run("PRAGMA wal_autocheckpoint = 0");
        at = { wal: wal(), cpu: cpu() };
      },
      async end() {
        const out = { bytes: wal() - at.wal, cpuUs: cpu() - at.cpu };
        sql.run("PRAGMA wal_checkpoint(TRUNCATE)");
        sql.run("PRAGMA wal_autocheckpoint = 1000");
        return out;
      },
    };
    const r = await measure(storage, meter, async (ids) => {
      const set = sql.prepare("UPDATE hooks SET status = 'failed' WHERE id = ?");
      sql.transaction(() => ids.forEach((id) => set.run(id)))();
    });
    print("SQLite", r);
    await storage.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU time (µs) of every process of the cluster: the postmaster's children (backends, WAL writer, checkpointer). */
function clusterCpuUs(postmaster: number): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      if (Number(pid) === postmaster || Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10_000;
}

/** Storage parameters that ask PostgreSQL to keep the body out of the row (`toast`). */
const TOAST = [
  `ALTER TABLE hooks SET (toast_tuple_target = 256)`,
  `ALTER TABLE hooks ALTER COLUMN body SET STORAGE EXTERNAL`,
  ...["id", "channel", "status", "method", "query", "headers", "ip", "event_type", "source_id"].map(
    (c) => `ALTER TABLE hooks ALTER COLUMN ${c} SET STORAGE MAIN`,
  ),
];

async function pgRound(url: string, toast: boolean): Promise<void> {
  const name = `bulk_writes_${toast ? "toast" : "migrated"}`;
  const admin = new SQL(url, { max: 1 });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`);
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const [{ dir }] = await admin.unsafe(`SELECT current_setting('data_directory') AS dir`);
  const postmaster = Number(readFileSync(join(dir, "postmaster.pid"), "utf8").split("\n")[0]);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const sql = await openPostgres(u.toString(), { max: 2 });
  try {
    await migratePostgres(sql);
    if (toast) for (const s of TOAST) await sql.unsafe(s);
    const storage = await createPostgresStorage(sql, { instance: "bench", leaseMs: 30_000, log: silentLog });
    const lsn = async () => Number((await sql.unsafe(`SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::float8 AS n`))[0].n);
    let at = { lsn: 0, cpu: 0 };
    const meter: Meter = {
      async begin() {
        await sql.unsafe("CHECKPOINT");
        at = { lsn: await lsn(), cpu: clusterCpuUs(postmaster) };
      },
      async end() {
        return { bytes: (await lsn()) - at.lsn, cpuUs: clusterCpuUs(postmaster) - at.cpu };
      },
    };
    const r = await measure(storage, meter, async (ids) => {
      await sql.unsafe(`UPDATE hooks SET status = 'failed' WHERE id = ANY($1::text[])`, [ids]);
      await sql.unsafe("VACUUM ANALYZE hooks");
    });
    const [{ heap, toasted }] = await sql.unsafe(
      `SELECT pg_relation_size('hooks')::float8 AS heap, COALESCE(pg_relation_size(reltoastrelid), 0)::float8 AS toasted FROM pg_class WHERE relname = 'hooks'`,
    );
    print(toast ? "PostgreSQL, toast parameters" : "PostgreSQL, as migrated", r);
    console.log(`  hooks table ${fmt(heap / 2 ** 20, 0)} MiB, its TOAST table ${fmt(toasted / 2 ** 20, 0)} MiB`);
    await storage.close();
  } finally {
    await sql.close();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`);
    await admin.close();
  }
}

for (let round = 1; round <= Number(args.rounds); round++) {
  console.log(`round ${round}`);
  if (!args.postgres) await sqliteRound();
  else {
    const url = process.env.MAILROOM_TEST_PG_URL;
    if (!url) throw new Error("--postgres: set MAILROOM_TEST_PG_URL (bun scripts/postgres.ts prints it)");
    for (const toast of round % 2 ? [false, true] : [true, false]) await pgRound(url, toast);
  }
}
