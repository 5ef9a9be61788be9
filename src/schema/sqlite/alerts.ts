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

/**
 * Alert rules made through the API or the dashboard (alerts/rule-store.ts), beside the config
 * file's `[[alerts]]`. `rule` is the rule's JSON as written (the TOML's keys, durations as text),
 * checked again by the config's checker whenever it is read or changed.
 */
export const alertRules = sqliteTable("alert_rules", {
  name: text("name").primaryKey(),
  rule: text("rule").notNull(),
  createdBy: text("created_by").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedBy: text("updated_by").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
