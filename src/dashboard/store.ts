import type { Db } from "../db/sqlite/open";
import { statementCache } from "../db/sqlite/statements";
import { report, sqliteTransactor } from "../db/transactor";

/**
 * The dashboard's storage contract (users, sessions, settings), met by SQLite below and by
 * PostgreSQL (db/pg/dashboard-store.ts). Every method is async and runs its writes in a
 * transaction of its own (joining the caller's as a savepoint when one is open). Lookups resolve to undefined for a missing row and
 * changes to false; any method rejects with the database's own error when the database fails
 * (nothing is then committed).
 */
export type UserRow = { email: string; role: "admin" | "member"; passwordHash: string; createdAt: number };
export type SessionRow = { tokenSha256: string; email: string; stamp: string; createdAt: number; expiresAt: number };

export interface UserStore {
  /** The stored user of this (lower-case) e-mail address. */
  getUser(email: string): Promise<UserRow | undefined>;
  /** How many users are stored (0 for none). */
  countUsers(): Promise<number>;
  /** Every stored user, by e-mail address. */
  listUsers(): Promise<UserRow[]>;
  /** false when the e-mail address is taken (nothing changes then). */
  insertUser(row: UserRow): Promise<boolean>;
  /**
   * The first admin, by the setup link: inserts the user and deletes the `setup` setting together,
   * only while that setting still holds `setup` (as written). "void" when it no longer does (of two
   * racing, one adds), "taken" for an address taken; nothing changes but for "added".
   */
  insertFirstUser(row: UserRow, setup: unknown): Promise<"added" | "taken" | "void">;
  /** Removes the user and their sessions together; false when there was no such user. */
  deleteUser(email: string): Promise<boolean>;
  /** Sets the password's hash and ends the user's sessions together; false when there is no such user. */
  setPasswordHash(email: string, passwordHash: string): Promise<boolean>;
}

export interface SessionStore {
  /** Stores a session and deletes those expired by `now`; rejects (storing nothing) when its token is stored already. */
  insertSession(row: SessionRow, now: number): Promise<void>;
  /** The stored session of this token's hash, or undefined (expired ones too until deleted: the caller checks expiresAt). */
  getSession(tokenSha256: string): Promise<SessionRow | undefined>;
  /** Deleting a session that does not exist is no error. */
  deleteSession(tokenSha256: string): Promise<void>;
}

/** Settings changed in the dashboard that outlive a restart, by key (JSON values). */
/**
 * `setup`: the pending first-admin link (its token's hash and expiry; dashboard/setup.ts).
 * `device_key`: the key device cookies are signed with (dashboard/devices.ts).
 * `paused_handlers`: the names of the handlers a user paused (delivery/pause.ts).
 */
export type SettingKey = "default_guards" | "setup" | "device_key" | "paused_handlers";

export interface SettingStore {
  /** The setting's value (parsed JSON), or undefined when never set. */
  readSetting<T>(key: SettingKey): Promise<T | undefined>;
  /** Sets the value (stored as JSON text), replacing any earlier one. */
  writeSetting(key: Exclude<SettingKey, "device_key">, value: unknown): Promise<void>;
  /**
   * Stores the value unless the key has one already (of two instances at once, one's is kept);
   * not reported: for values made once and never changed. Read the setting after it.
   */
  createSetting(key: SettingKey, value: unknown): Promise<void>;
}

export type DashboardStore = UserStore & SessionStore & SettingStore;

type UserRecord = { email: string; role: "admin" | "member"; password_hash: string; created_at: number };
type SessionRecord = { token_sha256: string; email: string; stamp: string; created_at: number; expires_at: number };

const toUser = (r: UserRecord): UserRow => ({ email: r.email, role: r.role, passwordHash: r.password_hash, createdAt: r.created_at });

/** The SQLite side. */
export function createDashboardStore(db: Db): DashboardStore {
  const sql = db.$client;
  const q = statementCache(sql);
  const { transaction } = sqliteTransactor(sql);

  /** Reports the users as changed when `done` (once the caller's transaction commits). */
  const usersChanged = (done: boolean) => (done && report(sql, { kind: "state", part: "users" }), done);
  return {
    async getUser(email) {
      const r = q("SELECT email, role, password_hash, created_at FROM users WHERE email = ?").get(email) as UserRecord | null;
      return r ? toUser(r) : undefined;
    },
    async countUsers() {
      return (q("SELECT count(*) AS n FROM users").get() as { n: number }).n;
    },
    async listUsers() {
      return (q("SELECT email, role, password_hash, created_at FROM users ORDER BY email").all() as UserRecord[]).map(toUser);
    },
    insertUser: (row) =>
      transaction(async () => {
        const added = q("INSERT INTO users (email, role, password_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (email) DO NOTHING").run(
          row.email,
          row.role,
          row.passwordHash,
          row.createdAt,
        );
        return usersChanged(added.changes > 0);
      }),
    insertFirstUser: (row, setup) =>
      transaction(async () => {
        const link = q("SELECT 1 FROM dashboard_settings WHERE key = 'setup' AND value = ?").get(JSON.stringify(setup));
        if (!link) return "void" as const;
        const added = q("INSERT INTO users (email, role, password_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (email) DO NOTHING").run(
          row.email,
          row.role,
          row.passwordHash,
          row.createdAt,
        );
        if (added.changes === 0) return "taken" as const;
        q("DELETE FROM dashboard_settings WHERE key = 'setup'").run();
        report(sql, { kind: "state", part: "setup" });
        usersChanged(true);
        return "added" as const;
      }),
    deleteUser: (email) =>
      transaction(async () => {
        const removed = q("DELETE FROM users WHERE email = ?").run(email).changes > 0;
        q("DELETE FROM sessions WHERE email = ?").run(email);
        return usersChanged(removed);
      }),
    setPasswordHash: (email, passwordHash) =>
      transaction(async () => {
        const changed = q("UPDATE users SET password_hash = ? WHERE email = ?").run(passwordHash, email).changes > 0;
        q("DELETE FROM sessions WHERE email = ?").run(email);
        return usersChanged(changed);
      }),

    insertSession: (row, now) =>
      transaction(async () => {
        q("DELETE FROM sessions WHERE expires_at < ?").run(now);
        q("INSERT INTO sessions (token_sha256, email, stamp, created_at, expires_at) VALUES (?, ?, ?, ?, ?)").run(
          row.tokenSha256,
          row.email,
          row.stamp,
          row.createdAt,
          row.expiresAt,
        );
      }),
    async getSession(tokenSha256) {
      const r = q("SELECT token_sha256, email, stamp, created_at, expires_at FROM sessions WHERE token_sha256 = ?").get(tokenSha256) as SessionRecord | null;
      return r ? { tokenSha256: r.token_sha256, email: r.email, stamp: r.stamp, createdAt: r.created_at, expiresAt: r.expires_at } : undefined;
    },
    deleteSession: (tokenSha256) =>
      transaction(async () => {
        q("DELETE FROM sessions WHERE token_sha256 = ?").run(tokenSha256);
      }),

    async readSetting<T>(key: SettingKey) {
      const r = q("SELECT value FROM dashboard_settings WHERE key = ?").get(key) as { value: string } | null;
      return r ? (JSON.parse(r.value) as T) : undefined;
    },
    async createSetting(key, value) {
      q("INSERT INTO dashboard_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING").run(key, JSON.stringify(value));
    },
    writeSetting: (key, value) =>
      transaction(async () => {
        q("INSERT INTO dashboard_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, JSON.stringify(value));
        report(sql, { kind: "state", part: key });
      }),
  };
}
