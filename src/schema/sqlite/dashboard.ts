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
  /** JSON array of the channels (glob patterns) a member is limited to; NULL: every channel. */
  channels: text("channels"),
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

/**
 * Guards defined in the dashboard. `settings` is the guard's config as JSON without its secret,
 * which is kept in `secret` (the guard needs it to check signatures) and never sent back.
 */
export const dashboardGuards = sqliteTable("dashboard_guards", {
  name: text("name").primaryKey(),
  kind: text("kind").notNull(),
  settings: text("settings").notNull(),
  secret: text("secret"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** Settings changed in the dashboard, as JSON values by key (`default_guards`). */
export const dashboardSettings = sqliteTable("dashboard_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/** Forward handlers added to a channel in the dashboard (command and module handlers are config-only). */
export const dashboardHandlers = sqliteTable(
  "dashboard_handlers",
  {
    name: text("name").primaryKey(),
    channel: text("channel").notNull(),
    url: text("url").notNull(),
    /** JSON object of header names to values. */
    headers: text("headers").notNull(),
    maxAttempts: integer("max_attempts").notNull(),
    backoffInitialMs: integer("backoff_initial_ms").notNull(),
    backoffMaxMs: integer("backoff_max_ms").notNull(),
    timeoutMs: integer("timeout_ms").notNull(),
    createdAt: integer("created_at").notNull(),
    /** JSON of the handler's `chaos` table as written (delivery/chaos.ts); null when off. */
    chaos: text("chaos"),
    /** The handler's `when` query as written (delivery/when.ts); '' for every hook. */
    when: text("when").notNull().default(""),
    /** The handler's `rate` as written ("10/s"); null when not paced. */
    rate: text("rate"),
    /** JSON of the handler's `breaker` table as written ({"failures":5,"cool_down":"30s"}); null when off. */
    breaker: text("breaker"),
  },
  (t) => [index("dashboard_handlers_channel").on(t.channel)],
);
