import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { int8, key, ms } from "./columns";

/** Requests refused by a guard (see ../../schema/guards.ts). */
export const refusals = pgTable(
  "refusals",
  {
    id: int8("id").primaryKey().generatedAlwaysAsIdentity(),
    channel: key("channel").notNull(),
    guard: text("guard").notNull(),
    status: integer("status").notNull(),
    reason: text("reason").notNull(),
    ip: text("ip").notNull(),
    method: text("method").notNull(),
    createdAt: ms("created_at").notNull(),
    /** See ../../schema/guards.ts. */
    ref: text("ref").notNull().default(""),
    query: text("query").notNull().default(""),
    headers: text("headers").notNull().default("{}"),
    kind: text("kind").notNull().default("refused"),
    diagnosis: text("diagnosis"),
    request: text("request"),
    requestBytes: integer("request_bytes"),
    deliveryId: text("delivery_id"),
  },
  (t) => [index("refusals_channel_id").on(t.channel, t.id), index("refusals_delivery").on(t.channel, t.deliveryId)],
);
