import { sql } from "drizzle-orm";
import type { ApiKeyStore, KeyGrant } from "../../hooks/api-key-store";
import { columnsOf, excluded, name, names, type Dialect } from "./dialect";

/** The grant of a row's scopes and channels columns (JSON arrays), undefined for a key with full access. */
function grantOf(scopes: string | null, channels: string | null): KeyGrant | undefined {
  return scopes === null ? undefined : { scopes: JSON.parse(scopes) as string[], channels: JSON.parse(channels ?? "[]") as string[] };
}

/**
 * ApiKeyStore on either backend (hooks/api-key-store.ts says what each method returns). Its rows
 * are the schema's; StoredApiKey is what the API reads of them. `changedElsewhere` is the
 * dialect's: SQLite's data_version; on PostgreSQL another instance's change of the keys arrives
 * over the change feed (the app reads them again), so it asks nothing of the database per request.
 */
export function createApiKeyStore(d: Dialect): ApiKeyStore {
  const k = d.tables.apiKeys;
  const list = d.query(columnsOf(k), (cols) => sql`SELECT ${cols} FROM ${k} ORDER BY ${k.label}`);
  type Insert = { label: string; sha256: string; createdAt: number; scopes: string | null; channels: string | null };
  const insert = d.prepare<Insert>(
    (p) => sql`INSERT INTO ${k} ${names(k.label, k.tokenSha256, k.createdAt, k.scopes, k.channels)}
      VALUES (${p.label}, ${p.sha256}, ${p.createdAt}, ${p.scopes}, ${p.channels}) ON CONFLICT ${names(k.label)} DO NOTHING`,
  );
  // One statement: the label's old key, its last use and its grant are gone as the new one lands.
  const replace = d.prepare<Omit<Insert, "scopes" | "channels">>(
    (p) => sql`INSERT INTO ${k} ${names(k.label, k.tokenSha256, k.createdAt)} VALUES (${p.label}, ${p.sha256}, ${p.createdAt})
      ON CONFLICT ${names(k.label)} DO UPDATE SET ${name(k.tokenSha256)} = ${excluded(k.tokenSha256)}, ${name(k.createdAt)} = ${excluded(k.createdAt)},
      ${name(k.lastUsedAt)} = NULL, ${name(k.scopes)} = NULL, ${name(k.channels)} = NULL`,
  );
  const remove = d.prepare<{ label: string }>((p) => sql`DELETE FROM ${k} WHERE ${k.label} = ${p.label}`);
  // Several instances may note uses at once: the latest time wins, none fails.
  const touch = d.prepare<{ label: string; at: number }>(
    (p) => sql`UPDATE ${k} SET ${name(k.lastUsedAt)} = ${p.at} WHERE ${k.label} = ${p.label} AND (${k.lastUsedAt} IS NULL OR ${k.lastUsedAt} < ${p.at})`,
  );
  const changedElsewhere = d.changedElsewhere();
  /** Reports the API keys as changed when `done` (once the caller's transaction commits). */
  const changed = (done: boolean) => (done && d.report({ kind: "state", part: "api_keys" }), done);
  return {
    async list() {
      return (await list.all({})).map((r) => {
        const grant = grantOf(r.scopes, r.channels);
        return { label: r.label, sha256: r.tokenSha256, createdAt: r.createdAt, lastUsedAt: r.lastUsedAt, ...(grant ? { grant } : {}) };
      });
    },
    insert: (label, sha256, createdAt, grant) =>
      d.write(async () => {
        const scopes = grant ? JSON.stringify(grant.scopes) : null;
        const channels = grant ? JSON.stringify(grant.channels) : null;
        return changed((await insert.run({ label, sha256, createdAt, scopes, channels })) > 0);
      }),
    replace: (label, sha256, createdAt) =>
      d.write(async () => {
        await replace.run({ label, sha256, createdAt });
        changed(true);
      }),
    remove: (label) => d.write(async () => changed((await remove.run({ label })) > 0)),
    touch: (label, at) =>
      d.write(async () => {
        await touch.run({ label, at });
      }),
    changedElsewhere: async () => changedElsewhere(),
  };
}
