import { boolean, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { LEDGER_ENTRIES, type ORDER_STATUSES } from "../sqlite/translate";
import { int8, key, ms } from "./columns";

/**
 * Tables of the translation ordering service (see ../../schema/translate.ts). Money is integer
 * cents in SQLite (INTEGER, 64-bit); here `bigint`, its exact equivalent, read as a JS number
 * (exact to 2^53 cents). `numeric` would be exact too, but arrives as a string and is slower, and
 * there are no fractions of a cent to keep. Concurrent orders on different instances stay exact
 * by locking the account row (SELECT ... FOR UPDATE) around each change and its ledger entry.
 */

export const translateAccounts = pgTable("translate_accounts", {
  /** Configured or created account ids (not generated). */
  id: int8("id").primaryKey(),
  balance: int8("balance").notNull(),
  reserved: int8("reserved").notNull().default(0),
  overdraft: boolean("overdraft").notNull().default(false),
  createdAt: ms("created_at").notNull(),
});

export const translateOrders = pgTable(
  "translate_orders",
  {
    id: int8("id").primaryKey().generatedAlwaysAsIdentity(),
    accountId: int8("account_id").notNull(),
    status: key("status").$type<(typeof ORDER_STATUSES)[number]>().notNull(),
    sourceLanguage: text("source_language").notNull(),
    targetLanguage: text("target_language").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceMetadata: text("resource_metadata"),
    sourceText: text("source_text").notNull(),
    snippet: text("snippet").notNull(),
    targetText: text("target_text"),
    volume: integer("volume").notNull(),
    /** Cents. */
    price: int8("price").notNull(),
    paid: boolean("paid").notNull().default(false),
    tone: text("tone"),
    limit: integer("context_limit"),
    category: text("category"),
    translator: text("translator"),
    createdAt: ms("created_at").notNull(),
    acceptedAt: ms("accepted_at"),
    completedAt: ms("completed_at"),
    statusAt: ms("status_at").notNull(),
  },
  (t) => [index("translate_orders_account_id").on(t.accountId, t.id), index("translate_orders_status").on(t.status, t.statusAt)],
);

export const translateComments = pgTable(
  "translate_comments",
  {
    id: int8("id").primaryKey().generatedAlwaysAsIdentity(),
    orderId: int8("order_id")
      .notNull()
      .references(() => translateOrders.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["CUSTOMER", "TRANSLATOR", "ADMIN"] }).notNull(),
    author: text("author").notNull(),
    text: text("text").notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [index("translate_comments_order_id").on(t.orderId, t.id)],
);

export const translateAttachments = pgTable("translate_attachments", {
  id: int8("id").primaryKey().generatedAlwaysAsIdentity(),
  type: text("type").notNull(),
  name: text("name").notNull(),
  weight: integer("weight").notNull(),
  size: text("size").notNull(),
  data: text("data").notNull(),
});

export const translateCommentAttachments = pgTable(
  "translate_comment_attachments",
  {
    commentId: int8("comment_id")
      .notNull()
      .references(() => translateComments.id, { onDelete: "cascade" }),
    attachmentId: int8("attachment_id")
      .notNull()
      .references(() => translateAttachments.id),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.attachmentId] }), index("translate_comment_attachments_attachment").on(t.attachmentId)],
);

/** Append-only history of every change to an account's money; amounts in cents. */
export const translateLedger = pgTable(
  "translate_ledger",
  {
    id: int8("id").primaryKey().generatedAlwaysAsIdentity(),
    accountId: int8("account_id").notNull(),
    orderId: int8("order_id"),
    entry: text("entry", { enum: LEDGER_ENTRIES }).notNull(),
    balanceDelta: int8("balance_delta").notNull(),
    reservedDelta: int8("reserved_delta").notNull(),
    balanceAfter: int8("balance_after").notNull(),
    reservedAfter: int8("reserved_after").notNull(),
    actor: text("actor").notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [index("translate_ledger_account_id").on(t.accountId, t.id)],
);

/** API keys of accounts created through the admin API: only the key's SHA-256. */
export const translateAccountKeys = pgTable(
  "translate_account_keys",
  {
    keySha256: key("key_sha256").primaryKey(),
    accountId: int8("account_id").notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [index("translate_account_keys_account_id").on(t.accountId)],
);
