import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The notifiers' outbox (notify/store.ts): one row per notice and notifier, written in the
 * transaction of the issue event that causes it and sent by the instance holding the rules'
 * lease. `notice` is the IssueNotice's JSON; `state` is queued, sent or failed (given up);
 * `next_attempt_at` is when a queued notice is due (its retry, or the end of a send's claim).
 */
export const notices = sqliteTable(
  "notices",
  {
    id: text("id").primaryKey(),
    notifier: text("notifier").notNull(),
    notice: text("notice").notNull(),
    state: text("state").notNull(),
    attempts: integer("attempts").notNull(),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    doneAt: integer("done_at"),
  },
  (t) => [index("notices_notifier_state").on(t.notifier, t.state, t.id), index("notices_state_done").on(t.state, t.doneAt)],
);

/** Per notifier: notices sent and given up since it was first used, and its last error (secrets masked). */
export const notifierStats = sqliteTable("notifier_stats", {
  notifier: text("notifier").primaryKey(),
  sent: integer("sent").notNull(),
  failed: integer("failed").notNull(),
  lastError: text("last_error"),
  lastErrorAt: integer("last_error_at"),
});
