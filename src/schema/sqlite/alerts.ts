import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Alerts' issues (alerts/store.ts): one per rule and scope while it is not resolved. `history` is
 * JSON: [{ at, action, by }] (opened, acknowledged, resolved, reopened), oldest first.
 */
export const alertIssues = sqliteTable(
  "alert_issues",
  {
    id: text("id").primaryKey(),
    rule: text("rule").notNull(),
    kind: text("kind").notNull(),
    scope: text("scope").notNull(),
    summary: text("summary").notNull(),
    state: text("state").notNull(),
    openedAt: integer("opened_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    resolvedAt: integer("resolved_at"),
    count: integer("count").notNull(),
    hooksQuery: text("hooks_query"),
    /** When the notifiers were last told (opened or reminded), for `repeat`. */
    notifiedAt: integer("notified_at").notNull(),
    history: text("history").notNull(),
  },
  (t) => [index("alert_issues_rule_scope").on(t.rule, t.scope), index("alert_issues_state").on(t.state, t.id)],
);
