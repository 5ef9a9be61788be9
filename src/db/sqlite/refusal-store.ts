import type { Db } from "./open";
import { statementCache } from "./statements";
import { sqliteTransactor } from "../transactor";
import type { RefusalStore } from "../../hooks/guards/refusal-store";
import { REFUSAL_COLUMNS, toRefusal, type RefusalRecord } from "../refusal-rows";

/** RefusalStore's SQLite side (hooks/guards/refusal-store.ts). */
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
