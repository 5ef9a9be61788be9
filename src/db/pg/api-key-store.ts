import { grantOf, type ApiKeyStore } from "../../hooks/api-key-store";
import { report } from "../transactor";
import { num, type PgTransactor } from "./transactor";

type KeyRecord = { label: string; token_sha256: string; created_at: string; last_used_at: string | null; scopes: string | null; channels: string | null };

/**
 * PostgreSQL's side of ApiKeyStore. Another instance's change of the keys arrives over the change
 * feed (the app reads them again), so `changedElsewhere` asks nothing of the database per request.
 */
export function createPgApiKeyStore(t: PgTransactor): ApiKeyStore {
  const x = () => t.exec();
  /** Reports the API keys as changed when `done` (once the caller's transaction commits). */
  const changed = (done: boolean) => (done && report(t.sql, { kind: "state", part: "api_keys" }), done);
  return {
    async list() {
      const rows = (await x().unsafe("SELECT label, token_sha256, created_at, last_used_at, scopes, channels FROM api_keys ORDER BY label")) as KeyRecord[];
      return rows.map((r) => {
        const grant = grantOf(r.scopes, r.channels);
        return { label: r.label, sha256: r.token_sha256, createdAt: num(r.created_at), lastUsedAt: num(r.last_used_at), ...(grant ? { grant } : {}) };
      });
    },
    async insert(label, sha256, createdAt, grant) {
      const added = await x().unsafe(
        "INSERT INTO api_keys (label, token_sha256, created_at, scopes, channels) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (label) DO NOTHING",
        [label, sha256, createdAt, grant ? JSON.stringify(grant.scopes) : null, grant ? JSON.stringify(grant.channels) : null],
      );
      return changed(added.count > 0);
    },
    async replace(label, sha256, createdAt) {
      await x().unsafe(
        "INSERT INTO api_keys (label, token_sha256, created_at) VALUES ($1, $2, $3) ON CONFLICT (label) DO UPDATE SET token_sha256 = excluded.token_sha256, created_at = excluded.created_at, last_used_at = NULL, scopes = NULL, channels = NULL",
        [label, sha256, createdAt],
      );
      changed(true);
    },
    async remove(label) {
      return changed((await x().unsafe("DELETE FROM api_keys WHERE label = $1", [label])).count > 0);
    },
    async touch(label, at) {
      // Several instances may note uses at once: the latest time wins, none fails.
      await x().unsafe("UPDATE api_keys SET last_used_at = GREATEST(COALESCE(last_used_at, 0), $1) WHERE label = $2", [at, label]);
    },
    changedElsewhere: async () => false,
  };
}
