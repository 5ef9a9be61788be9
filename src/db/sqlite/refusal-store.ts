import type { Db } from "./open";
import { statementCache } from "./statements";
import { sqliteTransactor } from "../transactor";
import type { Refusal, RefusalKind } from "../../hooks/guards/types";

export type RefusalQuery = { channel?: string; guard?: string; status?: number; kind?: RefusalKind; limit: number };

/**
 * Storage of the requests guards refused, newest kept. Both methods are async; any rejects with
 * the database's own error (nothing is then committed).
 */
export interface RefusalStore {
  /** In a transaction of its own: stores the batch, then deletes all but the newest `kept`. */
  insert(batch: readonly Refusal[], kept: number): Promise<void>;
  /** The newest first, of one channel, guard, status and/or kind when given, at most `limit`. */
  list(query: RefusalQuery): Promise<Refusal[]>;
  /** The refusal with this id, or undefined. */
  get(id: string): Promise<Refusal | undefined>;
}

export type RefusalRecord = Omit<Refusal, "createdAt" | "headers" | "id"> & { ref: string; headers: string; created_at: number | string };
export const REFUSAL_COLUMNS = "ref, kind, channel, guard, status, reason, ip, method, query, headers, created_at";

/** A stored row as a Refusal. */
export function toRefusal({ ref, headers, created_at, ...r }: RefusalRecord): Refusal {
  return { id: ref, ...r, headers: JSON.parse(headers), createdAt: Number(created_at) };
}

/** The SQLite side. */
export function createRefusalStore(db: Db): RefusalStore {
  const sql = db.$client;
  const q = statementCache(sql);
  const { transaction } = sqliteTransactor(sql);
  return {
    insert: (batch, kept) =>
      transaction(async () => {
        const insert = q(`INSERT INTO refusals (${REFUSAL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
        for (const r of batch)
          insert.run(r.id, r.kind, r.channel, r.guard, r.status, r.reason, r.ip, r.method, r.query, JSON.stringify(r.headers), r.createdAt);
        // Deletes everything older than the `kept`-th newest row (a no-op while there are fewer).
        q("DELETE FROM refusals WHERE id <= (SELECT id FROM refusals ORDER BY id DESC LIMIT 1 OFFSET ?)").run(kept);
      }),
    async list({ channel, guard, status, kind, limit }) {
      const where: string[] = [];
      const args: (string | number)[] = [];
      if (channel !== undefined) where.push("channel = ?"), args.push(channel);
      if (guard !== undefined) where.push("guard = ?"), args.push(guard);
      if (status !== undefined) where.push("status = ?"), args.push(status);
      if (kind !== undefined) where.push("kind = ?"), args.push(kind);
      const rows = q(`SELECT ${REFUSAL_COLUMNS} FROM refusals ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT ?`).all(
        ...args,
        limit,
      ) as RefusalRecord[];
      return rows.map(toRefusal);
    },
    async get(id) {
      // At most REFUSALS_KEPT rows: no index needed.
      const r = q(`SELECT ${REFUSAL_COLUMNS} FROM refusals WHERE ref = ?`).get(id) as RefusalRecord | null;
      return r ? toRefusal(r) : undefined;
    },
  };
}
