import type { Db } from "../db/sqlite/open";
import { statementCache } from "../db/sqlite/statements";
import { report, sqliteTransactor } from "../db/transactor";

/** What a scoped key may do: `scopes` (["relay"]) on `channels`. A key without a grant has full access. */
export type KeyGrant = { scopes: string[]; channels: string[] };

/** A stored management API key: only the SHA-256 (hex) of its token is kept. Times in ms. `grant` only when scoped. */
export type StoredApiKey = { label: string; sha256: string; createdAt: number; lastUsedAt: number | null; grant?: KeyGrant };

/** The grant of a row's scopes and channels columns (JSON arrays), undefined for a key with full access. */
export function grantOf(scopes: string | null, channels: string | null): KeyGrant | undefined {
  return scopes === null ? undefined : { scopes: JSON.parse(scopes) as string[], channels: JSON.parse(channels ?? "[]") as string[] };
}

/**
 * Storage of the management API's keys (the generated local one and those made in the dashboard;
 * the config file's are never stored). Every method is async and writes in a transaction of its
 * own. Any method rejects with the database's own error when the database fails.
 */
export interface ApiKeyStore {
  /** Every stored key, by label. */
  list(): Promise<StoredApiKey[]>;
  /** false when the label is taken (nothing changes then). A key with a grant is restricted to it. */
  insert(label: string, sha256: string, createdAt: number, grant?: KeyGrant): Promise<boolean>;
  /** Stores the key with full access, replacing any of the same label, in one transaction (the old token stops at once). */
  replace(label: string, sha256: string, createdAt: number): Promise<void>;
  /** false when there was no such key. */
  remove(label: string): Promise<boolean>;
  /** Notes the key's last use, unless a later one is noted already; no error for a label not stored. */
  touch(label: string, at: number): Promise<void>;
  /**
   * Whether another process (`mailroom token reset`) may have changed the keys since the last call.
   * Must be cheap: management requests ask it each time. SQLite compares its data_version, which
   * only other connections' commits move; a backend with no such counter may resolve false, and
   * a token matching no key still makes the keys be read again.
   */
  changedElsewhere(): Promise<boolean>;
}

type KeyRecord = { label: string; token_sha256: string; created_at: number; last_used_at: number | null; scopes: string | null; channels: string | null };

/** The SQLite side. */
export function createApiKeyStore(db: Db): ApiKeyStore {
  const sql = db.$client;
  const q = statementCache(sql);
  const { transaction } = sqliteTransactor(sql);
  const dataVersion = sql.query("PRAGMA data_version");
  const versionNow = () => (dataVersion.get() as { data_version: number }).data_version;
  let version = versionNow();
  /** Reports the API keys as changed when `done` (once the caller's transaction commits). */
  const changed = (done: boolean) => (done && report(sql, { kind: "state", part: "api_keys" }), done);

  return {
    async list() {
      const rows = q("SELECT label, token_sha256, created_at, last_used_at, scopes, channels FROM api_keys ORDER BY label").all() as KeyRecord[];
      return rows.map((r) => {
        const grant = grantOf(r.scopes, r.channels);
        return { label: r.label, sha256: r.token_sha256, createdAt: r.created_at, lastUsedAt: r.last_used_at, ...(grant ? { grant } : {}) };
      });
    },
    insert: (label, sha256, createdAt, grant) =>
      transaction(async () => {
        const added = q("INSERT INTO api_keys (label, token_sha256, created_at, scopes, channels) VALUES (?, ?, ?, ?, ?) ON CONFLICT (label) DO NOTHING").run(
          label,
          sha256,
          createdAt,
          grant ? JSON.stringify(grant.scopes) : null,
          grant ? JSON.stringify(grant.channels) : null,
        );
        return changed(added.changes > 0);
      }),
    replace: (label, sha256, createdAt) =>
      transaction(async () => {
        q("DELETE FROM api_keys WHERE label = ?").run(label);
        q("INSERT INTO api_keys (label, token_sha256, created_at) VALUES (?, ?, ?)").run(label, sha256, createdAt);
        changed(true);
      }),
    remove: (label) => transaction(async () => changed(q("DELETE FROM api_keys WHERE label = ?").run(label).changes > 0)),
    touch: (label, at) =>
      transaction(async () => {
        q("UPDATE api_keys SET last_used_at = max(coalesce(last_used_at, 0), ?) WHERE label = ?").run(at, label);
      }),
    async changedElsewhere() {
      const v = versionNow();
      if (v === version) return false;
      version = v;
      return true;
    },
  };
}
