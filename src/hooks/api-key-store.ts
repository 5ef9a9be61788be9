/** What a scoped key may do: `scopes` (["relay"]) on `channels`. A key without a grant has full access. */
export type KeyGrant = { scopes: string[]; channels: string[] };

/**
 * A stored management API key: only the SHA-256 (hex) of its token is kept. Times in ms. `grant`
 * only when scoped. Not the schema's row of api_keys: the grant is kept there as two JSON columns.
 */
export type StoredApiKey = { label: string; sha256: string; createdAt: number; lastUsedAt: number | null; grant?: KeyGrant };

/**
 * Storage of the management API's keys (the generated local one and those made in the dashboard;
 * the config file's are never stored), on either backend (db/stores/api-keys.ts). Every method is
 * async and writes in a transaction of its own. Any method rejects with the database's own error
 * when the database fails.
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
