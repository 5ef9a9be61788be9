import { index, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { hooks } from "./hooks";
import { key, ms } from "./columns";

/** The PostgreSQL twin of ../sqlite/tags.ts. */
export const hookTags = pgTable(
  "hook_tags",
  {
    hookId: key("hook_id")
      .notNull()
      .references(() => hooks.id, { onDelete: "cascade" }),
    tag: key("tag").notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hookId, t.tag] }), index("hook_tags_tag").on(t.tag, t.hookId)],
);

export const hookReads = pgTable(
  "hook_reads",
  {
    userId: key("user_id").notNull(),
    hookId: key("hook_id")
      .notNull()
      .references(() => hooks.id, { onDelete: "cascade" }),
    readAt: ms("read_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hookId] }), index("hook_reads_hook").on(t.hookId)],
);
