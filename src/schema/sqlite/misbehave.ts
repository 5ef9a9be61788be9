import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Custom responses set through the management API (config ones are not stored), by channel. */
export const channelResponses = sqliteTable("channel_responses", {
  channel: text("channel").primaryKey(),
  /** JSON of the setting, as PUT took it. */
  setting: text("setting").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Delivery ids seen per deduplicating channel, with the hook they were first stored as. Written in
 * the hook's own transaction; looked up by its primary key (one point query per caught hook with
 * an id); swept by age per channel through the second index.
 */
export const deliveries = sqliteTable(
  "deliveries",
  {
    channel: text("channel").notNull(),
    deliveryId: text("delivery_id").notNull(),
    hookId: text("hook_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.channel, t.deliveryId] }), index("deliveries_channel_created").on(t.channel, t.createdAt)],
);

/** How many repeats each channel dropped, and when the last one came. */
export const dedupStats = sqliteTable("dedup_stats", {
  channel: text("channel").primaryKey(),
  dropped: integer("dropped").notNull().default(0),
  lastDroppedAt: integer("last_dropped_at"),
});
