import type { RefusalStore } from "../../hooks/guards/refusal-store";
import { pgDialect } from "../stores/dialect";
import { createRefusalStore as sharedRefusalStore, diagnosisJson, requestBytes } from "../stores/refusals";
import type { PgTransactor } from "./transactor";

/**
 * RefusalStore's PostgreSQL side (hooks/guards/refusal-store.ts): the statements are written once
 * (db/stores/refusals.ts) but the insert, which sends a batch as one multi-row statement (the
 * client's row helper): a statement per row would be a round trip per row.
 */
export function createPgRefusalStore(t: PgTransactor): RefusalStore {
  return sharedRefusalStore(pgDialect(t), async (batch) => {
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
      diagnosis: diagnosisJson(r.diagnosis),
      request: r.savedRequest ?? null,
      request_bytes: requestBytes(r),
      delivery_id: r.deliveryId ?? null,
    }));
    const sql = t.exec();
    await sql`INSERT INTO refusals ${sql(values)}`;
  });
}
