import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * People who use the dashboard (users created in the dashboard or from the shell; those of the
 * config file are kept in memory). Only an argon2id hash of the password is stored.
 */
export const users = sqliteTable("users", {
  email: text("email").primaryKey(),
  role: text("role", { enum: ["admin", "member"] }).notNull(),
  passwordHash: text("password_hash").notNull(),
  createdAt: integer("created_at").notNull(),
});

/**
 * Dashboard sessions: only the SHA-256 of the cookie's token is stored. `stamp` is derived from
 * the user's password hash when the session starts, so a changed password ends every session.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    tokenSha256: text("token_sha256").primaryKey(),
    email: text("email").notNull(),
    stamp: text("stamp").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sessions_email").on(t.email)],
);
