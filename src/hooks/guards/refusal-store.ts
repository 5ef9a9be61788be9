import type { Db } from "../../db/open";
import { statementCache } from "../../db/statements";
import { sqliteTransactor } from "../../db/transactor";
import type { Refusal } from "./types";

export type RefusalQuery = { channel?: string; guard?: string; limit: number };

/**
 * Storage of the requests guards refused, newest kept. Both methods are async; any rejects with
 * the database's own error (nothing is then committed).
 */
export interface RefusalStore {
  /** In a transaction of its own: stores the batch, then deletes all but the newest `kept`. */
  insert(batch: readonly Refusal[], kept: number): Promise<void>;
  /** The newest first, of one channel and/or guard when given, at most `limit`. */
  list(query: RefusalQuery): Promise<Refusal[]>;
}

type RefusalRecord = Omit<Refusal, "createdAt"> & { created_at: number };

/** The SQLite side. */
export function createRefusalStore(db: Db): RefusalStore {
  const sql = db.$client;
  const q = statementCache(sql);
  const { transaction } = sqliteTransactor(sql);
  return {
    insert: (batch, kept) =>
      transaction(async () => {
        const insert = q("INSERT INTO refusals (channel, guard, status, reason, ip, method, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
        for (const r of batch) insert.run(r.channel, r.guard, r.status, r.reason, r.ip, r.method, r.createdAt);
        // Deletes everything older than the `kept`-th newest row (a no-op while there are fewer).
        q("DELETE FROM refusals WHERE id <= (SELECT id FROM refusals ORDER BY id DESC LIMIT 1 OFFSET ?)").run(kept);
      }),
    async list({ channel, guard, limit }) {
      const where: string[] = [];
      const args: (string | number)[] = [];
      if (channel !== undefined) where.push("channel = ?"), args.push(channel);
      if (guard !== undefined) where.push("guard = ?"), args.push(guard);
      const rows = q(
        `SELECT channel, guard, status, reason, ip, method, created_at FROM refusals ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT ?`,
      ).all(...args, limit) as RefusalRecord[];
      return rows.map(({ created_at, ...r }) => ({ ...r, createdAt: created_at }));
    },
  };
}
