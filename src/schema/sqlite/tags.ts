import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { hooks } from "./hooks";

/**
 * Tags of hooks (tags/, docs/tags.md): one row per hook and tag, removed with the hook. The index
 * by tag serves `tag:` in a query and the list of tags in use.
 */
export const hookTags = sqliteTable(
  "hook_tags",
  {
    hookId: text("hook_id")
      .notNull()
      .references(() => hooks.id, { onDelete: "cascade" }),
    tag: text("tag").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hookId, t.tag] }), index("hook_tags_tag").on(t.tag, t.hookId)],
);

/**
 * Which hooks each dashboard user has opened (tags/reads): a hook without a row for a user is
 * unread for them. Removed with the hook; a user's rows stay keyed by e-mail.
 */
export const hookReads = sqliteTable(
  "hook_reads",
  {
    userId: text("user_id").notNull(),
    hookId: text("hook_id")
      .notNull()
      .references(() => hooks.id, { onDelete: "cascade" }),
    readAt: integer("read_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hookId] }), index("hook_reads_hook").on(t.hookId)],
);
