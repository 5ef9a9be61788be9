import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { hooks } from "./hooks";

/**
 * Facts about a hook found after it was caught (marks/, docs/search.md): one row per hook and
 * kind, removed with the hook. `refusal`: the same delivery was refused before it was caught
 * (`has:refusal`). The index by kind serves the query term.
 */
export const hookMarks = sqliteTable(
  "hook_marks",
  {
    hookId: text("hook_id")
      .notNull()
      .references(() => hooks.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hookId, t.kind] }), index("hook_marks_kind").on(t.kind, t.hookId)],
);
