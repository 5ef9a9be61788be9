import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Requests refused by a guard, newest kept (see REFUSALS_KEPT): the only trace of a hook that was
 * not caught. `id` orders them; `created_at` is in ms since the epoch.
 */
export const refusals = sqliteTable(
  "refusals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    channel: text("channel").notNull(),
    guard: text("guard").notNull(),
    status: integer("status").notNull(),
    reason: text("reason").notNull(),
    ip: text("ip").notNull(),
    method: text("method").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("refusals_channel_id").on(t.channel, t.id)],
);
