import type { DashboardStore, SessionRow, SettingKey, UserRow } from "../../dashboard/store";
import { report } from "../transactor";
import { num, type PgTransactor } from "./transactor";

type UserRecord = { email: string; role: "admin" | "member"; password_hash: string; created_at: string };
type SessionRecord = { token_sha256: string; email: string; stamp: string; created_at: string; expires_at: string };

const toUser = (r: UserRecord): UserRow => ({ email: r.email, role: r.role, passwordHash: r.password_hash, createdAt: num(r.created_at) });

class AddressTaken extends Error {}

/** PostgreSQL's side of DashboardStore (users, sessions, settings). */
export function createPgDashboardStore(t: PgTransactor): DashboardStore {
  const x = () => t.exec();
  /** Reports the users as changed when `done` (once the caller's transaction commits). */
  const usersChanged = (done: boolean) => (done && report(t.sql, { kind: "state", part: "users" }), done);
  return {
    async getUser(email) {
      const [r] = (await x().unsafe("SELECT email, role, password_hash, created_at FROM users WHERE email = $1", [email])) as UserRecord[];
      return r ? toUser(r) : undefined;
    },
    async countUsers() {
      const [r] = (await x().unsafe("SELECT count(*)::float8 AS n FROM users")) as { n: number }[];
      return r?.n ?? 0;
    },
    async listUsers() {
      return ((await x().unsafe("SELECT email, role, password_hash, created_at FROM users ORDER BY email")) as UserRecord[]).map(toUser);
    },
    async insertUser(row) {
      const added = await x().unsafe("INSERT INTO users (email, role, password_hash, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING", [
        row.email,
        row.role,
        row.passwordHash,
        row.createdAt,
      ]);
      return usersChanged(added.count > 0);
    },
    insertFirstUser: (row, setup) =>
      t
        .transaction(async () => {
          // Taking the link first locks its row: a racing setup waits here, then finds it gone.
          const taken = await x().unsafe("DELETE FROM dashboard_settings WHERE key = 'setup' AND value = $1", [JSON.stringify(setup)]);
          if (taken.count === 0) return "void" as const;
          const added = await x().unsafe("INSERT INTO users (email, role, password_hash, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING", [
            row.email,
            row.role,
            row.passwordHash,
            row.createdAt,
          ]);
          // An address taken: the transaction is rolled back, the link kept.
          if (added.count === 0) throw new AddressTaken();
          report(t.sql, { kind: "state", part: "setup" });
          usersChanged(true);
          return "added" as const;
        })
        .catch((error) => {
          if (error instanceof AddressTaken) return "taken" as const;
          throw error;
        }),
    deleteUser: (email) =>
      t.transaction(async () => {
        const removed = (await x().unsafe("DELETE FROM users WHERE email = $1", [email])).count > 0;
        await x().unsafe("DELETE FROM sessions WHERE email = $1", [email]);
        return usersChanged(removed);
      }),
    setPasswordHash: (email, passwordHash) =>
      t.transaction(async () => {
        const changed = (await x().unsafe("UPDATE users SET password_hash = $1 WHERE email = $2", [passwordHash, email])).count > 0;
        await x().unsafe("DELETE FROM sessions WHERE email = $1", [email]);
        return usersChanged(changed);
      }),

    insertSession: (row: SessionRow, now: number) =>
      t.transaction(async () => {
        await x().unsafe("DELETE FROM sessions WHERE expires_at < $1", [now]);
        await x().unsafe("INSERT INTO sessions (token_sha256, email, stamp, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)", [
          row.tokenSha256,
          row.email,
          row.stamp,
          row.createdAt,
          row.expiresAt,
        ]);
      }),
    async getSession(tokenSha256) {
      const [r] = (await x().unsafe("SELECT token_sha256, email, stamp, created_at, expires_at FROM sessions WHERE token_sha256 = $1", [
        tokenSha256,
      ])) as SessionRecord[];
      return r ? { tokenSha256: r.token_sha256, email: r.email, stamp: r.stamp, createdAt: num(r.created_at), expiresAt: num(r.expires_at) } : undefined;
    },
    async deleteSession(tokenSha256) {
      await x().unsafe("DELETE FROM sessions WHERE token_sha256 = $1", [tokenSha256]);
    },

    async readSetting<T>(key: SettingKey) {
      const [r] = (await x().unsafe("SELECT value FROM dashboard_settings WHERE key = $1", [key])) as { value: string }[];
      return r ? (JSON.parse(r.value) as T) : undefined;
    },
    async createSetting(key, value) {
      await x().unsafe("INSERT INTO dashboard_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", [key, JSON.stringify(value)]);
    },
    async writeSetting(key, value) {
      await x().unsafe("INSERT INTO dashboard_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [
        key,
        JSON.stringify(value),
      ]);
      report(t.sql, { kind: "state", part: key });
    },
  };
}
