import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Tables of the translation ordering service. Money is integer cents; times are integer
 * milliseconds since the epoch (the wire models write ISO 8601 UTC).
 */

/** Seeded from [[translate.accounts]] the first time an id is seen; then changed only with a ledger entry. */
export const translateAccounts = sqliteTable("translate_accounts", {
  id: integer("id").primaryKey(),
  balance: integer("balance").notNull(),
  reserved: integer("reserved").notNull().default(0),
  overdraft: integer("overdraft", { mode: "boolean" }).notNull().default(false),
  createdAt: integer("created_at").notNull(),
});

export const ORDER_STATUSES = ["QUEUE", "PROGRESS", "DONE", "REVISION"] as const;

export const translateOrders = sqliteTable(
  "translate_orders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id").notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    sourceLanguage: text("source_language").notNull(),
    targetLanguage: text("target_language").notNull(),
    /** "text/plain" when the client sent `text` rather than a resource. */
    resourceType: text("resource_type").notNull(),
    resourceMetadata: text("resource_metadata"),
    sourceText: text("source_text").notNull(),
    snippet: text("snippet").notNull(),
    targetText: text("target_text"),
    volume: integer("volume").notNull(),
    price: integer("price").notNull(),
    /** Whether the price has been spent (the order was completed once); a revision costs nothing more. */
    paid: integer("paid", { mode: "boolean" }).notNull().default(false),
    tone: text("tone"),
    limit: integer("context_limit"),
    category: text("category"),
    translator: text("translator"),
    createdAt: integer("created_at").notNull(),
    acceptedAt: integer("accepted_at"),
    completedAt: integer("completed_at"),
    /** When the order entered its current status; the simulator's timers run from here. */
    statusAt: integer("status_at").notNull(),
  },
  (t) => [index("translate_orders_account_id").on(t.accountId, t.id), index("translate_orders_status").on(t.status, t.statusAt)],
);

export const translateComments = sqliteTable(
  "translate_comments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: integer("order_id")
      .notNull()
      .references(() => translateOrders.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["CUSTOMER", "TRANSLATOR", "ADMIN"] }).notNull(),
    author: text("author").notNull(),
    text: text("text").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("translate_comments_order_id").on(t.orderId, t.id)],
);

/** One row per uploaded image, shared by the comments of every order one translate call created. */
export const translateAttachments = sqliteTable("translate_attachments", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  type: text("type").notNull(),
  name: text("name").notNull(),
  weight: integer("weight").notNull(),
  size: text("size").notNull(),
  data: text("data").notNull(),
});

export const translateCommentAttachments = sqliteTable(
  "translate_comment_attachments",
  {
    commentId: integer("comment_id")
      .notNull()
      .references(() => translateComments.id, { onDelete: "cascade" }),
    attachmentId: integer("attachment_id")
      .notNull()
      .references(() => translateAttachments.id),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.attachmentId] }), index("translate_comment_attachments_attachment").on(t.attachmentId)],
);

export const LEDGER_ENTRIES = ["opening", "top_up", "set_balance", "reserve", "release", "spend"] as const;

/**
 * Append-only history of every change to an account's money: an account's balance and reserved
 * are always the sums of its deltas here.
 */
export const translateLedger = sqliteTable(
  "translate_ledger",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id").notNull(),
    orderId: integer("order_id"),
    entry: text("entry", { enum: LEDGER_ENTRIES }).notNull(),
    balanceDelta: integer("balance_delta").notNull(),
    reservedDelta: integer("reserved_delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    reservedAfter: integer("reserved_after").notNull(),
    actor: text("actor").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("translate_ledger_account_id").on(t.accountId, t.id)],
);

/**
 * API keys of accounts created through the admin API (POST /admin/v1/accounts): only the
 * SHA-256 of the key is kept, so the key is shown once. Keys of configured accounts stay in the config.
 */
export const translateAccountKeys = sqliteTable(
  "translate_account_keys",
  {
    keySha256: text("key_sha256").primaryKey(),
    accountId: integer("account_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("translate_account_keys_account_id").on(t.accountId)],
);
