import { sql } from "drizzle-orm";
import { boolean, index, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { EVENT_KINDS, type HookStatus } from "../statuses";
import { bytea, int8, key, ms } from "./columns";
import { hookIpInet } from "./ip";

/** The PostgreSQL twin of ../../schema/hooks.ts: same tables, columns and indexes (and hooks_status_id, hooks_ip_id). */

/**
 * Unlike SQLite's, this table has no pending/handled/failed/discarded columns: on PostgreSQL the
 * counts live in channel_counts only (authoritative), so there is no second copy to drift.
 */
export const channels = pgTable("channels", {
  name: key("name").primaryKey(),
  paused: boolean("paused").notNull().default(false),
  /** JSON array of guard names. */
  guards: text("guards").notNull().default("[]"),
  createdAt: ms("created_at").notNull(),
  /**
   * When a deletion of the channel began (ms), while it runs; null otherwise. Kept in the database
   * so that every instance refuses a pause or a change of guards meanwhile (hooks/channels.ts).
   */
  deletingSince: ms("deleting_since"),
});

/** How many slots writers spread a channel's counts over (slot is 0 .. CHANNEL_COUNT_SLOTS - 1). */
export const CHANNEL_COUNT_SLOTS = 16;

/**
 * A channel's hook counts by status as a striped counter: several instances write at once, and one
 * row per channel would serialise every batch of every instance on its row lock. A writer adds its
 * deltas to one slot (chosen per instance and batch, e.g. `(instance + batch) % CHANNEL_COUNT_SLOTS`)
 * with INSERT ... ON CONFLICT (channel, slot) DO UPDATE SET pending = channel_counts.pending +
 * excluded.pending, ...; a reader sums over the slots. Rows are removed with their channel
 * (there is no foreign key, as hooks have none to channels either).
 */
export const channelCounts = pgTable(
  "channel_counts",
  {
    channel: key("channel").notNull(),
    slot: smallint("slot").notNull(),
    pending: int8("pending").notNull().default(0),
    handled: int8("handled").notNull().default(0),
    failed: int8("failed").notNull().default(0),
    discarded: int8("discarded").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.channel, t.slot] })],
);

export const hooks = pgTable(
  "hooks",
  {
    id: key("id").primaryKey(),
    channel: key("channel").notNull(),
    status: key("status").$type<HookStatus>().notNull(),
    method: text("method").notNull(),
    query: text("query").notNull(),
    /** JSON object of lower-case names to values, as received (cookies dropped); kept byte for byte. */
    headers: text("headers").notNull(),
    body: bytea("body").notNull(),
    ip: text("ip").notNull(),
    createdAt: ms("created_at").notNull(),
    finalizedAt: ms("finalized_at"),
    /** The sender's event type, "" when unknown (see ../../schema/hooks.ts). */
    eventType: key("event_type").notNull().default(""),
    /** See ../../schema/hooks.ts. */
    sourceId: key("source_id"),
    /** See ../sqlite/hooks.ts. */
    verified: boolean("verified"),
  },
  (t) => [
    index("hooks_channel_status_id").on(t.channel, t.status, t.id),
    // PostgreSQL only: a status's hooks across channels in id order (a search or count with
    // `status:` and no channel reads its range, ids only, and joins it to a tag's ids). SQLite reads
    // the (channel, status, id) range of each channel in turn (db/sqlite/search-store.ts).
    index("hooks_status_id").on(t.status, t.id),
    // PostgreSQL only: the sender's address as an inet, then the id, for `ip:` (db/pg/search-store.ts):
    // a block's hooks by a range of it, one address's newest first. SQLite keeps the addresses in
    // its search index instead.
    index("hooks_ip_id").on(sql.raw(hookIpInet('"ip"')), t.id),
  ],
);

export const events = pgTable(
  "events",
  {
    id: int8("id").primaryKey().generatedAlwaysAsIdentity(),
    hookId: key("hook_id")
      .notNull()
      .references(() => hooks.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: EVENT_KINDS }).notNull(),
    actor: text("actor").notNull(),
    message: text("message").notNull().default(""),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [index("events_hook_id").on(t.hookId, t.id)],
);

/** Management API keys kept in the database (see ../../schema/hooks.ts). */
export const apiKeys = pgTable("api_keys", {
  label: key("label").primaryKey(),
  tokenSha256: text("token_sha256").notNull(),
  createdAt: ms("created_at").notNull().default(0),
  lastUsedAt: ms("last_used_at"),
  scopes: text("scopes"),
  channels: text("channels"),
});
