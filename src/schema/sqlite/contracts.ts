import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { hooks } from "./hooks";

/**
 * The contract check of each hook caught (contracts/, docs/contracts.md): its result, its first
 * violations as JSON, and whether it was the first of its event type or brought a new field path.
 */
export const hookContracts = sqliteTable(
  "hook_contracts",
  {
    hookId: text("hook_id")
      .primaryKey()
      .references(() => hooks.id, { onDelete: "cascade" }),
    channel: text("channel").notNull(),
    /** valid, invalid, unknown or none. */
    result: text("result").notNull(),
    /** JSON array of {path, message}. */
    violations: text("violations").notNull().default("[]"),
    newType: integer("new_type", { mode: "boolean" }).notNull().default(false),
    newField: integer("new_field", { mode: "boolean" }).notNull().default(false),
    checkedAt: integer("checked_at").notNull(),
  },
  (t) => [index("hook_contracts_channel_result").on(t.channel, t.result)],
);

/** What was seen per channel: each event type (path "") and each field path per event type. The first insert wins. */
export const contractSeen = sqliteTable(
  "contract_seen",
  {
    channel: text("channel").notNull(),
    eventType: text("event_type").notNull(),
    path: text("path").notNull(),
    firstHook: text("first_hook").notNull(),
  },
  (t) => [primaryKey({ columns: [t.channel, t.eventType, t.path] })],
);
