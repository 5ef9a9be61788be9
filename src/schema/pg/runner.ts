import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import type { ATTEMPT_OUTCOMES } from "../sqlite/runner";
import { int8, key, ms } from "./columns";
import { hooks } from "./hooks";

/**
 * Handler attempts and the queue (see ../../schema/runner.ts), plus a lease for several instances:
 * an instance claims queued rows with FOR UPDATE SKIP LOCKED, sets outcome `running`,
 * `lease_owner` to its instance id and `lease_until` a little ahead, and renews the lease while
 * the attempt runs. A `running` row whose `lease_until` has passed belongs to a dead instance and
 * may be taken over by another; a live instance's lease is never taken. Both stay null otherwise.
 */
export const attempts = pgTable(
  "attempts",
  {
    id: int8("id").primaryKey().generatedAlwaysAsIdentity(),
    hookId: key("hook_id")
      .notNull()
      .references(() => hooks.id, { onDelete: "cascade" }),
    handler: key("handler").notNull(),
    attempt: integer("attempt").notNull(),
    roundStart: integer("round_start").notNull(),
    outcome: key("outcome").$type<(typeof ATTEMPT_OUTCOMES)[number]>().notNull(),
    dueAt: ms("due_at").notNull(),
    startedAt: ms("started_at"),
    finishedAt: ms("finished_at"),
    httpStatus: integer("http_status"),
    exitCode: integer("exit_code"),
    excerpt: text("excerpt").notNull().default(""),
    error: text("error").notNull().default(""),
    resigned: text("resigned"),
    chaos: text("chaos"),
    leaseOwner: text("lease_owner"),
    leaseUntil: ms("lease_until"),
  },
  (t) => [index("attempts_queue").on(t.outcome, t.handler, t.dueAt), index("attempts_hook").on(t.hookId, t.handler, t.attempt)],
);
