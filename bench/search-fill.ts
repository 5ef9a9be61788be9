/**
 * The hooks bench/search.ts searches: JSON bodies of about 1 KiB from a 20-word vocabulary, a rare
 * word (`zanzibarN`) in one hook of RARE_EVERY, spread over the last 7 days, 20 channels, 3 event
 * types; the same hooks on SQLite and PostgreSQL (a fixed pseudo-random sequence).
 */
import type { SQL } from "bun";
import { monotonicFactory } from "ulid";
import { openDatabase } from "../src/db/sqlite/open";

export const WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango".split(" ");
export const RARE_EVERY = 50_000;
type Row = [id: string, channel: string, query: string, headers: string, body: Buffer, ip: string, at: number, type: string];

/** Calls `each` with chunks of the N hooks, in id order. */
function generate(n: number, chunk: number, each: (rows: Row[]) => void | Promise<void>): Promise<void> | void {
  const next = monotonicFactory();
  const start = Date.now() - 7 * 86_400_000;
  let seed = 1;
  const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), (seed >>> 8) % k);
  const make = (done: number): Row => {
    const at = start + Math.floor((done * 7 * 86_400_000) / n);
    const words = Array.from({ length: 120 }, () => WORDS[rnd(WORDS.length)]).join(" ");
    const rare = done % RARE_EVERY === 7 ? ` zanzibar${done}` : "";
    const type = ["order.paid", "order.created", "refund.created"][rnd(3)]!;
    const body = `{"type":"${type}","order":${done},"customer":"cus_${rnd(5000)}","note":"${words}${rare}"}`;
    const headers = `{"content-type":"application/json","user-agent":"Shop-Hookshot/1.0","x-shop-topic":"${type}"}`;
    const channel = `shop-${rnd(20)}`;
    return [next(at).toLowerCase(), channel, `channel=${channel}`, headers, Buffer.from(body), `203.0.113.${rnd(250)}`, at, type];
  };
  return (async () => {
    for (let done = 0; done < n; ) {
      const rows: Row[] = [];
      for (const end = Math.min(n, done + chunk); done < end; done++) rows.push(make(done));
      await each(rows);
    }
  })();
}

/** Fills a new SQLite data file (synchronous = OFF: a benchmark's file). */
export async function fillSqlite(path: string, n: number): Promise<void> {
  const db = openDatabase({ path, durability: "normal" });
  const sql = db.$client;
  sql.run("PRAGMA synchronous = OFF");
  const insert = sql.prepare(
    `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, event_type) VALUES (?, ?, 'pending', 'POST', ?, ?, ?, ?, ?, ?)`,
  );
  await generate(n, 50_000, (rows) => sql.transaction(() => rows.forEach((r) => insert.run(...r)))());
  sql.run("PRAGMA wal_checkpoint(TRUNCATE)");
  sql.close();
}

/** Fills PostgreSQL's hooks table (migrated), 5,000 hooks a statement. */
export async function fillPostgres(sql: SQL, n: number): Promise<void> {
  await generate(n, 5000, async (rows) => {
    const col = (i: number) => rows.map((r) => r[i]);
    await sql.unsafe(
      `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, event_type)
       SELECT id, channel, 'pending', 'POST', query, headers, decode(body, 'base64'), ip, created_at, event_type
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[])
         AS u(id, channel, query, headers, body, ip, created_at, event_type)`,
      [col(0), col(1), col(2), col(3), rows.map((r) => r[4].toString("base64")), col(5), col(6), col(7)],
    );
  });
}
