import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { key, ms } from "./columns";

/** Bulk actions' jobs (see ../sqlite/bulk.ts). */
export const bulkJobs = pgTable(
  "bulk_jobs",
  {
    id: key("id").primaryKey(),
    action: text("action").notNull(),
    query: text("query").notNull(),
    params: text("params").notNull(),
    actor: text("actor").notNull(),
    state: key("state").notNull(),
    total: integer("total").notNull(),
    done: integer("done").notNull(),
    skipped: integer("skipped").notNull(),
    failed: integer("failed").notNull(),
    until: key("until"),
    createdAt: ms("created_at").notNull(),
    finishedAt: ms("finished_at"),
    message: text("message").notNull(),
    leaseUntil: ms("lease_until"),
  },
  (t) => [index("bulk_jobs_state").on(t.state, t.id)],
);

/** Saved views (see ../sqlite/bulk.ts). */
export const savedViews = pgTable(
  "saved_views",
  {
    owner: key("owner").notNull(),
    name: key("name").notNull(),
    query: text("query").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [uniqueIndex("saved_views_owner_name").on(t.owner, t.name)],
);
