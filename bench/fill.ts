/**
 * Fills a Mailroom data file with many hooks quickly for the reads benchmark: rows written with
 * prepared statements in large transactions (the schema comes from the real migrations), one
 * event for each finalized or failed hook, and channel counters set to the exact counts.
 */
import { monotonicFactory } from "ulid";
import { openDatabase } from "../src/db/sqlite/open";

export const STATUSES = ["pending", "handled", "failed", "discarded"] as const;
/** Share of hooks in each status, in STATUSES order. */
const WEIGHTS = [0.3, 0.55, 0.1, 0.05];
const TXN_ROWS = 50_000;

export type Filled = { channels: string[]; counts: Map<string, Record<string, number>> };

export function fillHooks(path: string, opts: { hooks: number; channels: number; days: number }): Filled {
  const db = openDatabase({ path, durability: "normal" });
  const sql = db.$client;
  sql.run("PRAGMA synchronous = OFF");
  const insertHook = sql.prepare(
    `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, finalized_at)
     VALUES (?, ?, ?, 'POST', ?, ?, ?, '203.0.113.9', ?, ?)`,
  );
  const insertEvent = sql.prepare(`INSERT INTO events (hook_id, kind, actor, message, created_at) VALUES (?, ?, ?, ?, ?)`);
  const channels = Array.from({ length: opts.channels }, (_, i) => `shop-${String(i).padStart(2, "0")}`);
  const counts = new Map(channels.map((c) => [c, { pending: 0, handled: 0, failed: 0, discarded: 0 } as Record<string, number>]));
  const nextId = monotonicFactory();
  const start = Date.now() - opts.days * 86_400_000;
  const step = (opts.days * 86_400_000) / opts.hooks;
  const pad = "x".repeat(900);
  let random = 12345;
  const rand = () => (random = (random * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;

  for (let done = 0; done < opts.hooks; ) {
    sql.transaction(() => {
      for (const end = Math.min(opts.hooks, done + TXN_ROWS); done < end; done++) {
        const at = Math.floor(start + done * step);
        const id = nextId(at).toLowerCase();
        const channel = channels[Math.floor(rand() * channels.length)]!;
        let r = rand();
        let s = 0;
        while (s < WEIGHTS.length - 1 && r >= WEIGHTS[s]!) r -= WEIGHTS[s++]!;
        const status = STATUSES[s]!;
        counts.get(channel)![status]!++;
        const body = `{"event":"order.paid","order":${done},"note":"${pad}"}`;
        const headers = `{"content-type":"application/json","content-length":"${body.length}","user-agent":"Shop-Hookshot/1.0","x-shop-topic":"orders/paid","x-shop-hmac-sha256":"c2lnbmF0dXJlLW9mLWhvb2stbnVtYmVyLSR7ZG9uZX0="}`;
        const finalized = status === "handled" || status === "discarded" ? at + 1000 : null;
        insertHook.run(id, channel, status, `channel=${channel}`, headers, Buffer.from(body), at, finalized);
        if (status !== "pending") {
          const kind = status === "failed" ? "failed" : status;
          insertEvent.run(id, kind, status === "handled" ? "" : "api:ops", status === "failed" ? "receiver answered 500" : "", at + 1000);
        }
      }
    })();
  }
  const setChannel = sql.prepare(`INSERT INTO channels (name, guards, pending, handled, failed, discarded, created_at) VALUES (?, '[]', ?, ?, ?, ?, ?)`);
  for (const [name, c] of counts) setChannel.run(name, c.pending!, c.handled!, c.failed!, c.discarded!, start);
  sql.run("PRAGMA wal_checkpoint(TRUNCATE)");
  sql.close();
  return { channels, counts };
}
