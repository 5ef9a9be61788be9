import { boolean, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { int8, key, ms } from "./columns";

/** Custom responses set through the management API, by channel (see ../../schema/misbehave.ts). */
export const channelResponses = pgTable("channel_responses", {
  channel: key("channel").primaryKey(),
  /** JSON of the setting, as PUT took it. */
  setting: text("setting").notNull(),
  updatedAt: ms("updated_at").notNull(),
});

/** Delivery ids seen per deduplicating channel, with the hook they were first stored as. */
export const deliveries = pgTable(
  "deliveries",
  {
    channel: key("channel").notNull(),
    deliveryId: key("delivery_id").notNull(),
    hookId: text("hook_id").notNull(),
    /**
     * True while the delivery id is claimed by a hook being stored (hook_id is then the claim's
     * token); false once that hook committed (hook_id is its id). See dedup/index.ts.
     */
    pending: boolean("pending").notNull().default(false),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.channel, t.deliveryId] }), index("deliveries_channel_created").on(t.channel, t.createdAt)],
);

/** How many repeats each channel dropped, and when the last one came. */
export const dedupStats = pgTable("dedup_stats", {
  channel: key("channel").primaryKey(),
  dropped: int8("dropped").notNull().default(0),
  lastDroppedAt: ms("last_dropped_at"),
});
