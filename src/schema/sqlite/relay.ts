import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Who listens on each relay ("relay:<key label>:<channel>"): one listener at a time per key and
 * channel, across the instances sharing the database. A row whose `seen_at` is older than the
 * heartbeats allow (its instance died) may be taken over; the same listener (a laptop reconnecting)
 * takes its own row over at once.
 */
export const relayListeners = sqliteTable("relay_listeners", {
  handler: text("handler").primaryKey(),
  /** The laptop's own id, kept in its data file: the same laptop after a restart or a reconnect. */
  listener: text("listener").notNull(),
  /** The laptop's host name, as it said. */
  host: text("host").notNull(),
  /** When the laptop's `mailroom listen` started (ms). */
  startedAt: integer("started_at").notNull(),
  connectedAt: integer("connected_at").notNull(),
  /** Last heartbeat from the instance holding the connection (ms). */
  seenAt: integer("seen_at").notNull(),
  /** The instance holding the connection. */
  instance: text("instance").notNull(),
});
