import type { Db } from "./open";
import { statementCache } from "./statements";
import { report } from "../transactor";
import type { TransferStore } from "../../transfer/store";

/** TransferStore's SQLite side (transfer/store.ts). */
export function createTransferStore(db: Db): TransferStore {
  const sql = db.$client;
  const q = statementCache(sql);
  return {
    async importHooks(rows, guardsOfNewChannel) {
      const stored: string[] = [];
      for (const h of rows) {
        const put = q(
          `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, finalized_at, source_id, event_type)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
        ).run(h.id, h.channel, h.status, h.method, h.query, JSON.stringify(h.headers), h.body, h.ip, h.createdAt, h.finalizedAt, h.sourceId, h.eventType);
        if (put.changes === 0) continue;
        q("INSERT INTO channels (name, guards, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING").run(
          h.channel,
          JSON.stringify(guardsOfNewChannel(h.channel)),
          h.createdAt,
        );
        q(`UPDATE channels SET ${h.status} = ${h.status} + 1 WHERE name = ?`).run(h.channel);
        const event = q("INSERT INTO events (hook_id, kind, actor, message, created_at) VALUES (?, ?, ?, ?, ?)");
        for (const e of h.events) event.run(h.id, e.kind, e.actor, e.message, e.createdAt);
        report(sql, { kind: "hook", id: h.id, channel: h.channel, status: h.status });
        stored.push(h.id);
      }
      return stored;
    },
  };
}
