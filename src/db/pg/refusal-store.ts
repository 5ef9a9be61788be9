import type { RefusalStore } from "../../hooks/guards/refusal-store";
import type { PgTransactor } from "./transactor";

type RefusalRecord = { channel: string; guard: string; status: number; reason: string; ip: string; method: string; created_at: string };

/** PostgreSQL's side of RefusalStore: a batch is one multi-row statement. */
export function createPgRefusalStore(t: PgTransactor): RefusalStore {
  const x = () => t.exec();
  return {
    insert: (batch, kept) =>
      t.transaction(async () => {
        if (batch.length > 0) {
          const values = batch.map((r) => ({
            channel: r.channel,
            guard: r.guard,
            status: r.status,
            reason: r.reason,
            ip: r.ip,
            method: r.method,
            created_at: r.createdAt,
          }));
          const sql = x();
          await sql`INSERT INTO refusals ${sql(values)}`;
        }
        await x().unsafe("DELETE FROM refusals WHERE id <= (SELECT id FROM refusals ORDER BY id DESC LIMIT 1 OFFSET $1)", [kept]);
      }),
    async list({ channel, guard, limit }) {
      const where: string[] = [];
      const args: unknown[] = [limit];
      if (channel !== undefined) args.push(channel), where.push(`channel = $${args.length}`);
      if (guard !== undefined) args.push(guard), where.push(`guard = $${args.length}`);
      const rows = (await x().unsafe(
        `SELECT channel, guard, status, reason, ip, method, created_at FROM refusals ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT $1`,
        args,
      )) as RefusalRecord[];
      return rows.map(({ created_at, ...r }) => ({ ...r, createdAt: Number(created_at) }));
    },
  };
}
