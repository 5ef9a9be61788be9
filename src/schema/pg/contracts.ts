import { boolean, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { key, ms } from "./columns";
import { hooks } from "./hooks";

/** The contract check of each hook caught (as ../sqlite/contracts.ts). */
export const hookContracts = pgTable(
  "hook_contracts",
  {
    hookId: key("hook_id")
      .primaryKey()
      .references(() => hooks.id, { onDelete: "cascade" }),
    channel: key("channel").notNull(),
    result: key("result").notNull(),
    violations: text("violations").notNull().default("[]"),
    newType: boolean("new_type").notNull().default(false),
    newField: boolean("new_field").notNull().default(false),
    checkedAt: ms("checked_at").notNull(),
  },
  (t) => [index("hook_contracts_channel_result").on(t.channel, t.result)],
);

/** What was seen per channel (as ../sqlite/contracts.ts): the first insert wins, ON CONFLICT DO NOTHING decides races. */
export const contractSeen = pgTable(
  "contract_seen",
  {
    channel: key("channel").notNull(),
    eventType: key("event_type").notNull(),
    path: key("path").notNull(),
    firstHook: key("first_hook").notNull(),
  },
  (t) => [primaryKey({ columns: [t.channel, t.eventType, t.path] })],
);
