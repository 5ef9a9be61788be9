import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { int8, key, ms } from "./columns";

/** The notifiers' outbox (see ../sqlite/notify.ts). */
export const notices = pgTable(
  "notices",
  {
    id: key("id").primaryKey(),
    notifier: key("notifier").notNull(),
    notice: text("notice").notNull(),
    state: key("state").notNull(),
    attempts: integer("attempts").notNull(),
    nextAttemptAt: ms("next_attempt_at").notNull(),
    lastError: text("last_error"),
    createdAt: ms("created_at").notNull(),
    doneAt: ms("done_at"),
  },
  (t) => [index("notices_notifier_state").on(t.notifier, t.state, t.id), index("notices_state_done").on(t.state, t.doneAt)],
);

/** Per notifier: notices sent and given up, and its last error (see ../sqlite/notify.ts). */
export const notifierStats = pgTable("notifier_stats", {
  notifier: key("notifier").primaryKey(),
  sent: int8("sent").notNull(),
  failed: int8("failed").notNull(),
  lastError: text("last_error"),
  lastErrorAt: ms("last_error_at"),
});
