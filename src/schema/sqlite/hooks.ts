import { sql } from "drizzle-orm";
import { blob, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { EVENT_KINDS, HOOK_STATUSES } from "../statuses";

/** Times are integer milliseconds since the epoch; the wire models turn them into RFC 3339. */

export const channels = sqliteTable("channels", {
  name: text("name").primaryKey(),
  paused: integer("paused", { mode: "boolean" }).notNull().default(false),
  /** JSON array of guard names. */
  guards: text("guards").notNull().default("[]"),
  pending: integer("pending").notNull().default(0),
  handled: integer("handled").notNull().default(0),
  failed: integer("failed").notNull().default(0),
  discarded: integer("discarded").notNull().default(0),
  createdAt: integer("created_at").notNull(),
  /**
   * When a deletion of the channel began (ms), while it runs; null otherwise. Kept in the database
   * so that every instance refuses a pause or a change of guards meanwhile (hooks/channels.ts).
   */
  deletingSince: integer("deleting_since"),
});

export const hooks = sqliteTable(
  "hooks",
  {
    id: text("id").primaryKey(),
    channel: text("channel").notNull(),
    status: text("status", { enum: HOOK_STATUSES }).notNull(),
    method: text("method").notNull(),
    query: text("query").notNull(),
    /** JSON object of lower-case names to values, as received (cookies dropped). */
    headers: text("headers").notNull(),
    body: blob("body", { mode: "buffer" }).notNull(),
    ip: text("ip").notNull(),
    createdAt: integer("created_at").notNull(),
    finalizedAt: integer("finalized_at"),
    /** The sender's event type (`push`, `invoice.paid`), "" when unknown (hooks/event-type.ts). Not indexed: a filter of the list scans the pages it reads. */
    eventType: text("event_type").notNull().default(""),
    /** The hook this one was made from (edit and send into a channel), if any. */
    sourceId: text("source_id"),
    /** Whether a guard that authenticates the sender passed when it was caught (hooks/guards/types.ts); NULL: caught before this was recorded. */
    verified: integer("verified", { mode: "boolean" }),
  },
  // One secondary index: each one more costs the catching endpoint a b-tree insert per hook and
  // more WAL pages per commit. Lists by channel alone or status alone merge its ranges (db/sqlite/hook-store.ts).
  (t) => [index("hooks_channel_status_id").on(t.channel, t.status, t.id)],
);

export const events = sqliteTable(
  "events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    hookId: text("hook_id")
      .notNull()
      .references(() => hooks.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: EVENT_KINDS }).notNull(),
    actor: text("actor").notNull(),
    message: text("message").notNull().default(""),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("events_hook_id").on(t.hookId, t.id)],
);

/**
 * Management API keys kept in the database: the generated local one and those an admin created in
 * the dashboard; only hashes are kept. `last_used_at` is written at most once a minute per key.
 */
export const apiKeys = sqliteTable("api_keys", {
  label: text("label").primaryKey(),
  tokenSha256: text("token_sha256").notNull(),
  createdAt: integer("created_at").notNull().default(sql`0`),
  lastUsedAt: integer("last_used_at"),
  /** JSON array of scopes (["relay"]); NULL: full access. */
  scopes: text("scopes"),
  /** JSON array of the channels a scoped key may reach; NULL with scopes NULL. */
  channels: text("channels"),
});
