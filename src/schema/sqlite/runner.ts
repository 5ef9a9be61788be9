import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { hooks } from "./hooks";

/**
 * Handler attempts: every attempt ever made, and the queue itself (rows with outcome `queued`),
 * so retry state survives a restart (pg-boss style). Times are integer milliseconds.
 *
 *   queued -> running -> succeeded | failed (another attempt queued) | gave_up
 *   queued -> cancelled (DiscardHook)
 *   queued -> running -> skipped (the handler's `when` does not want the hook: nothing sent)
 */
export const ATTEMPT_OUTCOMES = ["queued", "running", "succeeded", "failed", "gave_up", "cancelled", "skipped"] as const;

export const attempts = sqliteTable(
  "attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    hookId: text("hook_id")
      .notNull()
      .references(() => hooks.id, { onDelete: "cascade" }),
    handler: text("handler").notNull(),
    /** 1, 2, ... per hook and handler, across RetryHook rounds. */
    attempt: integer("attempt").notNull(),
    /** The attempt number that started the current round (1, or the first attempt after a RetryHook). */
    roundStart: integer("round_start").notNull(),
    outcome: text("outcome", { enum: ATTEMPT_OUTCOMES }).notNull(),
    /** When the attempt may run (next_attempt_at). */
    dueAt: integer("due_at").notNull(),
    startedAt: integer("started_at"),
    finishedAt: integer("finished_at"),
    httpStatus: integer("http_status"),
    exitCode: integer("exit_code"),
    /** A bounded excerpt of the answer (response body, program output, returned value). */
    excerpt: text("excerpt").notNull().default(""),
    error: text("error").notNull().default(""),
    /** The provider kind the attempt was re-signed as (delivery/resign.ts), never the secret; null when sent as caught. */
    resigned: text("resigned"),
    /** What delivery chaos did to this attempt (delivery/chaos.ts): duplicate, reorder, delay, drop_first, burst; null when none. */
    chaos: text("chaos"),
  },
  (t) => [index("attempts_queue").on(t.outcome, t.handler, t.dueAt), index("attempts_hook").on(t.hookId, t.handler, t.attempt)],
);
