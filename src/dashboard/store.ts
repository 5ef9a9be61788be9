import type { sessions, users } from "../schema/sqlite";

/**
 * The dashboard's storage contract (users, sessions, settings), met on either backend by
 * db/stores/dashboard.ts. Every method is async and runs its writes in a transaction of its own
 * (joining the caller's as a savepoint when one is open). Lookups resolve to undefined for a
 * missing row and changes to false; any method rejects with the database's own error when the
 * database fails (nothing is then committed).
 */
export type UserRow = typeof users.$inferSelect;
/** A user to store: `channels` (a JSON array of glob patterns) only for a member limited to them. */
export type NewUser = Omit<UserRow, "channels"> & { channels?: string | null };
export type SessionRow = typeof sessions.$inferSelect;

export interface UserStore {
  /** The stored user of this (lower-case) e-mail address. */
  getUser(email: string): Promise<UserRow | undefined>;
  /** How many users are stored (0 for none). */
  countUsers(): Promise<number>;
  /** Every stored user, by e-mail address. */
  listUsers(): Promise<UserRow[]>;
  /** false when the e-mail address is taken (nothing changes then). */
  insertUser(row: NewUser): Promise<boolean>;
  /**
   * The first admin, by the setup link: inserts the user and deletes the `setup` setting together,
   * only while that setting still holds `setup` (as written). "void" when it no longer does (of two
   * racing, one adds), "taken" for an address taken; nothing changes but for "added".
   */
  insertFirstUser(row: NewUser, setup: unknown): Promise<"added" | "taken" | "void">;
  /** Removes the user and their sessions together; false when there was no such user. */
  deleteUser(email: string): Promise<boolean>;
  /** Sets the password's hash and ends the user's sessions together; false when there is no such user. */
  setPasswordHash(email: string, passwordHash: string): Promise<boolean>;
  /** Limits a user to channels (a JSON array of glob patterns), or not (null); false when there is no such user. */
  setChannels(email: string, channels: string | null): Promise<boolean>;
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
   * Reads the value and stores what `change` makes of it, as one step: of instances changing the
   * same key at once, each sees what the one before wrote (PostgreSQL: under a lock of the key).
   * `change` answering undefined leaves the value as it is (and reports nothing). Resolves to the
   * value kept.
   */
  updateSetting<T>(key: Exclude<SettingKey, "device_key">, change: (current: T | undefined) => T | undefined): Promise<T | undefined>;
  /**
   * Stores the value unless the key has one already (of two instances at once, one's is kept);
   * not reported: for values made once and never changed. Read the setting after it.
   */
  createSetting(key: SettingKey, value: unknown): Promise<void>;
}

export type DashboardStore = UserStore & SessionStore & SettingStore;
