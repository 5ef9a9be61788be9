import { pgTable, text } from "drizzle-orm/pg-core";
import { key, ms } from "./columns";

/** Who listens on each relay (see ../../schema/relay.ts). */
export const relayListeners = pgTable("relay_listeners", {
  handler: key("handler").primaryKey(),
  listener: text("listener").notNull(),
  host: text("host").notNull(),
  startedAt: ms("started_at").notNull(),
  connectedAt: ms("connected_at").notNull(),
  seenAt: ms("seen_at").notNull(),
  instance: text("instance").notNull(),
});
