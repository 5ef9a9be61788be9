import type { Db } from "./open";
import { sqliteDialect } from "../stores/dialect";
import { createRefusalStore as sharedRefusalStore } from "../stores/refusals";
import type { RefusalStore } from "../../hooks/guards/refusal-store";
import { diagnosisJson, requestBytes } from "../stores/refusals";

/**
 * RefusalStore's SQLite side (hooks/guards/refusal-store.ts): the statements are written once
 * (db/stores/refusals.ts) but the insert, which runs a statement prepared once per row: on one
 * local connection a row costs no round trip, and the text never changes.
 */
export function createRefusalStore(db: Db): RefusalStore {
  const sql = db.$client;
  const insert = sql.prepare(
    "INSERT INTO refusals (ref, kind, channel, guard, status, reason, ip, method, query, headers, created_at, diagnosis, request, request_bytes, delivery_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  return sharedRefusalStore(sqliteDialect(sql), async (batch) => {
    for (const r of batch)
      insert.run(
        r.id,
        r.kind,
        r.channel,
        r.guard,
        r.status,
        r.reason,
        r.ip,
        r.method,
        r.query,
        JSON.stringify(r.headers),
        r.createdAt,
        diagnosisJson(r.diagnosis),
        r.savedRequest ?? null,
        requestBytes(r),
        r.deliveryId ?? null,
      );
  });
}
