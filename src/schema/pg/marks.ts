import { index, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { hooks } from "./hooks";
import { key, ms } from "./columns";

/** The PostgreSQL twin of ../sqlite/marks.ts. */
export const hookMarks = pgTable(
  "hook_marks",
  {
    hookId: key("hook_id")
      .notNull()
      .references(() => hooks.id, { onDelete: "cascade" }),
    kind: key("kind").notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hookId, t.kind] }), index("hook_marks_kind").on(t.kind, t.hookId)],
);
