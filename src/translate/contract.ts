import type { Transactor } from "../lib/transactor";
import type { translateAccounts, translateAttachments, translateLedger, translateOrders } from "../schema/sqlite";

/**
 * The translation service's storage contract, met on both backends by db/stores/translate.ts.
 * Services depend on this, never on a driver. Money is integer cents; times are integer
 * milliseconds since the epoch.
 */

export type OrderStatus = "QUEUE" | "PROGRESS" | "DONE" | "REVISION";
export type LedgerEntry = "opening" | "top_up" | "set_balance" | "reserve" | "release" | "spend";
export type Role = "CUSTOMER" | "TRANSLATOR" | "ADMIN";

/** The rows are the schema's (schema/sqlite/translate.ts; PostgreSQL's has the same). */
export type AccountRow = typeof translateAccounts.$inferSelect;

export type OrderRow = typeof translateOrders.$inferSelect;

/** A new order: the id is the store's; columns with a default may be left out. */
export type NewOrder = Omit<OrderRow, "id" | "paid" | "targetText" | "translator" | "acceptedAt" | "completedAt"> &
  Partial<Pick<OrderRow, "id" | "paid" | "targetText" | "translator" | "acceptedAt" | "completedAt">>;

export type LedgerRow = typeof translateLedger.$inferSelect;

/** An image as stored once and linked from comments. */
export type AttachmentRow = Omit<typeof translateAttachments.$inferSelect, "id">;

/** Not a row: a comment with the images it links. */
export type CommentRow = { id: number; orderId: number; role: Role; author: string; text: string; createdAt: number; attachments: AttachmentRow[] };

export type OrderQuery = {
  accountId?: number;
  statuses?: OrderStatus[];
  /** Only orders this translator may see: QUEUE and REVISION ones, and those it holds or completed. */
  visibleTo?: string;
  sort: "asc" | "desc";
  page: number;
  perPage: number;
};

/** One change of an account's money, recorded as a ledger entry. Deltas in cents. */
export type Move = { entry: LedgerEntry; balance: number; reserved: number; actor: string; now: number; orderId?: number };

/**
 * Every method is async. Methods marked "in transaction" must run inside `transaction()`, which
 * every store of the same database shares; a backend may lock what they touch until the commit
 * (PostgreSQL: the account row, so concurrent orders on different instances keep money exact).
 * Lookups resolve to undefined (or []) for a missing row and never reject for it. Any method
 * rejects with the database's own error when the database fails; nothing is then committed.
 */
export interface TranslateStore extends Transactor {
  /** The account, or undefined. */
  account(id: number): Promise<AccountRow | undefined>;
  /** In transaction: the account, or undefined, held for this transaction (locked on backends that lock rows). */
  accountForUpdate(id: number): Promise<AccountRow | undefined>;
  /** Every account, by id. */
  accounts(): Promise<AccountRow[]>;
  /** In transaction: creates the account with an `opening` ledger entry unless it exists (then changes nothing). */
  seedAccount(id: number, balance: number, overdraft: boolean, now: number): Promise<void>;
  /** In transaction: deletes every order, comment, image, ledger entry, key and account; ids start again from 1. */
  clear(): Promise<void>;
  /**
   * In transaction: a new account after the highest id, with an `opening` ledger entry and one API
   * key (its SHA-256). Resolves to the account; rejects if the key's hash is already stored.
   */
  createAccount(balance: number, overdraft: boolean, keySha256: string, actor: string, now: number): Promise<AccountRow>;
  /** The account of a key created through the admin API, by the key's SHA-256; undefined for an unknown key. */
  accountOfKey(keySha256: string): Promise<number | undefined>;
  /**
   * In transaction: changes balance and reserved by the deltas and appends the ledger entry.
   * Resolves to the account after the change; the account must exist (rejects otherwise).
   */
  move(accountId: number, m: Move): Promise<AccountRow>;
  /** In transaction: sets whether the account may go below zero; undefined when it does not exist. */
  setOverdraft(id: number, allowed: boolean): Promise<AccountRow | undefined>;
  /** The account's ledger, oldest first ([] for an unknown account). */
  ledger(accountId: number): Promise<LedgerRow[]>;
  /** In transaction: stores the order; resolves to it with its new id. */
  insertOrder(values: NewOrder): Promise<OrderRow>;
  /** The order, or undefined. */
  order(id: number): Promise<OrderRow | undefined>;
  /** One page of orders by id in `sort` order. */
  orders(q: OrderQuery): Promise<OrderRow[]>;
  /** Orders in one of `statuses` since `before` or earlier (of `translator`, if given), oldest first, at most `limit` (the simulator's work). */
  due(statuses: OrderStatus[], before: number, limit: number, translator?: string): Promise<OrderRow[]>;
  /** The price of the account's orders not yet paid (what its `reserved` must be), 0 when none. */
  unpaidTotal(accountId: number): Promise<number>;
  /** In transaction: changes the order only while it is still in `from`; resolves to it changed, or undefined otherwise. */
  transition(id: number, from: OrderStatus[], patch: Partial<NewOrder>): Promise<OrderRow | undefined>;
  /**
   * In transaction: deletes the order, its comments and the images no comment uses any more, only
   * while the order is still in `from`; resolves to whether it did (false for an unknown id).
   */
  deleteOrder(id: number, from: OrderStatus[]): Promise<boolean>;
  /** In transaction: stores an image once; resolves to its id, for addComment. */
  insertAttachment(a: AttachmentRow): Promise<number>;
  /** In transaction: adds a comment to the order, linking the stored images in this order. */
  addComment(orderId: number, c: { role: Role; author: string; text: string; attachmentIds: number[]; now: number }): Promise<void>;
  /** The order's comments with their images, oldest first ([] when none). */
  comments(orderId: number): Promise<CommentRow[]>;
}
