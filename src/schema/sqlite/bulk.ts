import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Bulk actions by query (bulk/): one row per job, its progress written after each batch so that
 * any instance answers GET and DELETE (cancel) of it. `params` is JSON (the action's own fields:
 * the URL of `send`, the tags of `tag`).
 */
export const bulkJobs = sqliteTable(
  "bulk_jobs",
  {
    id: text("id").primaryKey(),
    action: text("action").notNull(),
    query: text("query").notNull(),
    params: text("params").notNull(),
    actor: text("actor").notNull(),
    state: text("state").notNull(),
    total: integer("total").notNull(),
    done: integer("done").notNull(),
    skipped: integer("skipped").notNull(),
    failed: integer("failed").notNull(),
    /** The newest hook id when the job started: no hook caught after it is in the job. */
    until: text("until"),
    createdAt: integer("created_at").notNull(),
    finishedAt: integer("finished_at"),
    message: text("message").notNull(),
    /**
     * While running: until when the instance running it holds it (renewed as it goes); a running
     * job past it was left by an instance that stopped, and is marked interrupted (docs/bulk.md).
     * Null for jobs of versions before it (taken as expired).
     */
    leaseUntil: integer("lease_until"),
  },
  (t) => [index("bulk_jobs_state").on(t.state, t.id)],
);

/**
 * Saved views (views/): a named query, a user's own (`owner` is their e-mail address, or
 * "api:<label>" for an API key) or shared (`owner` is ""); a name is unique per owner.
 */
export const savedViews = sqliteTable(
  "saved_views",
  {
    owner: text("owner").notNull(),
    name: text("name").notNull(),
    query: text("query").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("saved_views_owner_name").on(t.owner, t.name)],
);
