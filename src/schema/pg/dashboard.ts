import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { key, ms } from "./columns";

/** Dashboard tables (see ../../schema/dashboard.ts). */

export const users = pgTable("users", {
  email: key("email").primaryKey(),
  role: text("role", { enum: ["admin", "member"] }).notNull(),
  passwordHash: text("password_hash").notNull(),
  createdAt: ms("created_at").notNull(),
  /** JSON array of the channels (glob patterns) a member is limited to; NULL: every channel. */
  channels: text("channels"),
});

export const sessions = pgTable(
  "sessions",
  {
    tokenSha256: key("token_sha256").primaryKey(),
    email: key("email").notNull(),
    stamp: text("stamp").notNull(),
    createdAt: ms("created_at").notNull(),
    expiresAt: ms("expires_at").notNull(),
  },
  (t) => [index("sessions_email").on(t.email)],
);

export const dashboardGuards = pgTable("dashboard_guards", {
  name: key("name").primaryKey(),
  kind: text("kind").notNull(),
  /** The guard's config as JSON, without its secret. */
  settings: text("settings").notNull(),
  secret: text("secret"),
  createdAt: ms("created_at").notNull(),
  updatedAt: ms("updated_at").notNull(),
});

export const dashboardSettings = pgTable("dashboard_settings", {
  key: key("key").primaryKey(),
  /** A JSON value. */
  value: text("value").notNull(),
});

export const dashboardHandlers = pgTable(
  "dashboard_handlers",
  {
    name: key("name").primaryKey(),
    channel: key("channel").notNull(),
    url: text("url").notNull(),
    /** JSON object of header names to values. */
    headers: text("headers").notNull(),
    maxAttempts: integer("max_attempts").notNull(),
    /** Durations in ms are bigint: an int4 of ms ends at 24.8 days. */
    backoffInitialMs: ms("backoff_initial_ms").notNull(),
    backoffMaxMs: ms("backoff_max_ms").notNull(),
    timeoutMs: ms("timeout_ms").notNull(),
    createdAt: ms("created_at").notNull(),
    /** JSON of the handler's `chaos` table as written; null when off. */
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
