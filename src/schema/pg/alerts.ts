import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { key, ms } from "./columns";

/** Alerts' issues (see ../sqlite/alerts.ts). */
export const alertIssues = pgTable(
  "alert_issues",
  {
    id: key("id").primaryKey(),
    rule: key("rule").notNull(),
    kind: text("kind").notNull(),
    scope: key("scope").notNull(),
    summary: text("summary").notNull(),
    state: key("state").notNull(),
    openedAt: ms("opened_at").notNull(),
    lastSeenAt: ms("last_seen_at").notNull(),
    resolvedAt: ms("resolved_at"),
    count: integer("count").notNull(),
    hooksQuery: text("hooks_query"),
    notifiedAt: ms("notified_at").notNull(),
    history: text("history").notNull(),
  },
  (t) => [index("alert_issues_rule_scope").on(t.rule, t.scope), index("alert_issues_state").on(t.state, t.id)],
);

/** Alert rules made through the API (see ../sqlite/alerts.ts). */
export const alertRules = pgTable("alert_rules", {
  name: key("name").primaryKey(),
  rule: text("rule").notNull(),
  createdBy: text("created_by").notNull(),
  createdAt: ms("created_at").notNull(),
  updatedBy: text("updated_by").notNull(),
  updatedAt: ms("updated_at").notNull(),
});
