import { sql, type SQL } from "drizzle-orm";
import type { RefusalStore, StoredRefusal } from "../../hooks/guards/refusal-store";
import type { Refusal, RefusalKind } from "../../hooks/guards/types";
import { REQUESTS_KEPT_BYTES } from "../../hooks/guards/refusals";
import { name, type Dialect } from "./dialect";

/**
 * How a backend stores a batch of refusals, in the caller's transaction: its own way (SQLite runs
 * a statement prepared once per row, PostgreSQL sends the batch as one multi-row statement: a
 * round trip per row would be a round trip per refused request).
 */
export type InsertRefusals = (batch: readonly StoredRefusal[]) => Promise<void>;

/** A refusal's diagnosis as stored: JSON, or null (a refusal stored without one). */
export const diagnosisJson = (d: Refusal["diagnosis"] | undefined): string | null => (d ? JSON.stringify(d) : null);

/** What a refusal's saved request weighs against REQUESTS_KEPT_BYTES (null without one). */
export const requestBytes = (r: StoredRefusal): number | null => (r.savedRequest ? Buffer.byteLength(r.savedRequest) : null);

/** RefusalStore on either backend (hooks/guards/refusal-store.ts says what each method returns). */
export function createRefusalStore(d: Dialect, insert: InsertRefusals): RefusalStore {
  const r = d.tables.refusals;
  const row = {
    ref: r.ref,
    kind: r.kind,
    channel: r.channel,
    guard: r.guard,
    status: r.status,
    reason: r.reason,
    ip: r.ip,
    method: r.method,
    query: r.query,
    headers: r.headers,
    createdAt: r.createdAt,
    diagnosis: r.diagnosis,
  };
  /** A row as a Refusal: its public id is `ref` (`id` orders the rows), its headers JSON. */
  const toRefusal = ({
    ref,
    kind,
    headers,
    diagnosis,
    ...rest
  }: Omit<Refusal, "id" | "kind" | "headers" | "diagnosis"> & { ref: string; kind: string; headers: string; diagnosis: string | null }): Refusal => ({
    ...rest,
    id: ref,
    kind: kind as RefusalKind,
    headers: JSON.parse(headers),
    diagnosis: diagnosis === null ? null : JSON.parse(diagnosis),
  });
  // At most `kept` rows: no index needed.
  const get = d.query<typeof row, { ref: string }>(row, (cols, p) => sql`SELECT ${cols} FROM ${r} WHERE ${r.ref} = ${p.ref}`);
  // Deletes everything older than the `kept`-th newest row (a no-op while there are fewer).
  const saved = d.query<{ request: typeof r.request }, { ref: string }>(
    { request: r.request },
    (cols, p) => sql`SELECT ${cols} FROM ${r} WHERE ${r.ref} = ${p.ref}`,
  );
  const diagnose = d.prepare<{ ref: string; diagnosis: string | null }>(
    (p) => sql`UPDATE ${r} SET ${name(r.diagnosis)} = ${p.diagnosis} WHERE ${r.ref} = ${p.ref}`,
  );
  const trim = d.prepare<{ kept: number }>(
    (p) => sql`DELETE FROM ${r} WHERE ${r.id} <= (SELECT ${r.id} FROM ${r} ORDER BY ${r.id} DESC LIMIT 1 OFFSET ${p.kept})`,
  );
  // The saved requests past the newest `bytes` of them, newest first: a running sum over the kept
  // rows (`kept` at most, no index needed) of the sizes written with them.
  const forget = d.prepare<{ bytes: number }>(
    (p) => sql`UPDATE ${r} SET ${name(r.request)} = NULL, ${name(r.requestBytes)} = NULL WHERE ${r.id} IN (
      SELECT id FROM (SELECT ${r.id} AS id, SUM(${r.requestBytes}) OVER (ORDER BY ${r.id} DESC) AS run FROM ${r} WHERE ${r.requestBytes} IS NOT NULL) t
      WHERE t.run > ${p.bytes})`,
  );
  return {
    insert: (batch, kept, keptBytes) =>
      d.transaction(async () => {
        if (batch.length > 0) await insert(batch);
        await trim.run({ kept });
        if (batch.some((x) => x.savedRequest)) await forget.run({ bytes: keptBytes ?? REQUESTS_KEPT_BYTES });
      }),
    async list({ channel, guard, status, kind, limit }) {
      const where: SQL[] = [];
      if (channel !== undefined) where.push(sql`${r.channel} = ${channel}`);
      if (guard !== undefined) where.push(sql`${r.guard} = ${guard}`);
      if (status !== undefined) where.push(sql`${r.status} = ${status}`);
      if (kind !== undefined) where.push(sql`${r.kind} = ${kind}`);
      const filter = where.length > 0 ? sql` WHERE ${sql.join(where, sql` AND `)}` : sql``;
      return (await d.rows(row, (cols) => sql`SELECT ${cols} FROM ${r}${filter} ORDER BY ${r.id} DESC LIMIT ${limit}`)).map(toRefusal);
    },
    async get(ref) {
      const found = await get.get({ ref });
      return found ? toRefusal(found) : undefined;
    },
    async savedRequest(ref) {
      return (await saved.get({ ref }))?.request ?? undefined;
    },
    async setDiagnosis(ref, diagnosis) {
      return (await diagnose.run({ ref, diagnosis: diagnosisJson(diagnosis) })) > 0;
    },
  };
}
