import { REFUSAL_COLUMNS, toRefusal, type RefusalRecord } from "../refusal-rows";
import type { RefusalStore } from "../../hooks/guards/refusal-store";
import type { PgTransactor } from "./transactor";

/** PostgreSQL's side of RefusalStore: a batch is one multi-row statement. */
export function createPgRefusalStore(t: PgTransactor): RefusalStore {
  const x = () => t.exec();
  return {
    insert: (batch, kept) =>
      t.transaction(async () => {
        if (batch.length > 0) {
          const values = batch.map((r) => ({
            ref: r.id,
            kind: r.kind,
            channel: r.channel,
            guard: r.guard,
            status: r.status,
            reason: r.reason,
            ip: r.ip,
            method: r.method,
            query: r.query,
            headers: JSON.stringify(r.headers),
            created_at: r.createdAt,
          }));
          const sql = x();
          await sql`INSERT INTO refusals ${sql(values)}`;
        }
        await x().unsafe("DELETE FROM refusals WHERE id <= (SELECT id FROM refusals ORDER BY id DESC LIMIT 1 OFFSET $1)", [kept]);
      }),
    async list({ channel, guard, status, kind, limit }) {
      const where: string[] = [];
      const args: unknown[] = [limit];
      if (channel !== undefined) args.push(channel), where.push(`channel = $${args.length}`);
      if (guard !== undefined) args.push(guard), where.push(`guard = $${args.length}`);
      if (status !== undefined) args.push(status), where.push(`status = $${args.length}`);
      if (kind !== undefined) args.push(kind), where.push(`kind = $${args.length}`);
      const rows = (await x().unsafe(
        `SELECT ${REFUSAL_COLUMNS} FROM refusals ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT $1`,
        args,
      )) as RefusalRecord[];
      return rows.map(toRefusal);
    },
    async get(id) {
      const [r] = (await x().unsafe(`SELECT ${REFUSAL_COLUMNS} FROM refusals WHERE ref = $1`, [id])) as RefusalRecord[];
      return r ? toRefusal(r) : undefined;
    },
  };
}
