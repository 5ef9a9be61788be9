import { and, asc, desc, eq, inArray, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/open";
import {
  translateAccountKeys as accountKeys,
  translateAccounts as accounts,
  translateAttachments as attachments,
  translateCommentAttachments as links,
  translateComments as comments,
  translateLedger as ledger,
  translateOrders as orders,
} from "../db/schema";

export type AccountRow = typeof accounts.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type OrderStatus = OrderRow["status"];
export type LedgerRow = typeof ledger.$inferSelect;
export type LedgerEntry = LedgerRow["entry"];
export type AttachmentRow = Omit<typeof attachments.$inferSelect, "id">;
export type CommentRow = typeof comments.$inferSelect & { attachments: AttachmentRow[] };
export type Role = CommentRow["role"];
export type OrderQuery = {
  accountId?: number;
  statuses?: OrderStatus[];
  /** Only orders this translator may see: QUEUE and REVISION ones, and those it holds or completed. */
  visibleTo?: string;
  sort: "asc" | "desc";
  page: number;
  perPage: number;
};

/**
 * The translation service's storage. Methods marked "in transaction" must run inside
 * `transaction()`; lookups return undefined for a missing row and never throw.
 */
export function createTranslateStore(db: Db) {
  return {
    /** Runs fn in one IMMEDIATE transaction (nested calls become savepoints); rolls back if it throws. */
    transaction<T>(fn: () => T): T {
      return db.$client.transaction(fn).immediate();
    },

    account: (id: number): AccountRow | undefined => db.select().from(accounts).where(eq(accounts.id, id)).get(),
    accounts: (): AccountRow[] => db.select().from(accounts).orderBy(asc(accounts.id)).all(),

    /** In transaction: creates the account with an `opening` ledger entry unless it exists. */
    seedAccount(id: number, balance: number, overdraft: boolean, now: number): void {
      const created = db.insert(accounts).values({ id, balance: 0, overdraft, createdAt: now }).onConflictDoNothing().returning().get();
      if (created) this.move(id, { entry: "opening", balance, reserved: 0, actor: "config", now });
    },

    /**
     * In transaction: deletes every order, comment, image, ledger entry and account, and starts
     * their ids again from 1 (AUTOINCREMENT keeps its counters in sqlite_sequence).
     */
    clear(): void {
      for (const table of [links, comments, attachments, orders, ledger, accountKeys, accounts]) db.delete(table).run();
      db.$client.run("DELETE FROM sqlite_sequence WHERE name IN ('translate_orders', 'translate_comments', 'translate_attachments', 'translate_ledger')");
    },

    /**
     * In transaction: a new account after the highest id, with an `opening` ledger entry and one
     * API key (its SHA-256). Throws if the key's hash is already stored.
     */
    createAccount(balance: number, overdraft: boolean, keySha256: string, actor: string, now: number): AccountRow {
      const id = db.select({ max: sql<number>`coalesce(max(${accounts.id}), 0)` }).from(accounts).get()!.max + 1;
      db.insert(accounts).values({ id, balance: 0, overdraft, createdAt: now }).run();
      db.insert(accountKeys).values({ keySha256, accountId: id, createdAt: now }).run();
      return this.move(id, { entry: "opening", balance, reserved: 0, actor, now });
    },

    /** The account of a key created through the admin API, by the key's SHA-256. */
    accountOfKey: (keySha256: string): number | undefined =>
      db.select({ id: accountKeys.accountId }).from(accountKeys).where(eq(accountKeys.keySha256, keySha256)).get()?.id,

    /** In transaction: changes balance and reserved by the deltas and appends the ledger entry. */
    move(accountId: number, m: { entry: LedgerEntry; balance: number; reserved: number; actor: string; now: number; orderId?: number }): AccountRow {
      const row = db
        .update(accounts)
        .set({ balance: sql`${accounts.balance} + ${m.balance}`, reserved: sql`${accounts.reserved} + ${m.reserved}` })
        .where(eq(accounts.id, accountId))
        .returning()
        .get()!;
      db.insert(ledger)
        .values({
          accountId, orderId: m.orderId ?? null, entry: m.entry, balanceDelta: m.balance, reservedDelta: m.reserved,
          balanceAfter: row.balance, reservedAfter: row.reserved, actor: m.actor, createdAt: m.now,
        })
        .run();
      return row;
    },

    setOverdraft: (id: number, allowed: boolean): AccountRow | undefined =>
      db.update(accounts).set({ overdraft: allowed }).where(eq(accounts.id, id)).returning().get(),

    ledger: (accountId: number): LedgerRow[] => db.select().from(ledger).where(eq(ledger.accountId, accountId)).orderBy(asc(ledger.id)).all(),

    insertOrder: (values: NewOrder): OrderRow => db.insert(orders).values(values).returning().get(),
    order: (id: number): OrderRow | undefined => db.select().from(orders).where(eq(orders.id, id)).get(),

    orders(q: OrderQuery): OrderRow[] {
      const where: SQL[] = [];
      if (q.accountId !== undefined) where.push(eq(orders.accountId, q.accountId));
      if (q.statuses) where.push(inArray(orders.status, q.statuses));
      if (q.visibleTo !== undefined) where.push(or(inArray(orders.status, ["QUEUE", "REVISION"]), eq(orders.translator, q.visibleTo))!);
      return db.select().from(orders).where(and(...where))
        .orderBy(q.sort === "asc" ? asc(orders.id) : desc(orders.id))
        .limit(q.perPage).offset(q.page * q.perPage).all();
    },

    /** Orders in one of `statuses` since `before` or earlier, oldest first (the simulator's work). */
    due: (statuses: OrderStatus[], before: number, limit: number, translator?: string): OrderRow[] =>
      db.select().from(orders)
        .where(and(inArray(orders.status, statuses), lte(orders.statusAt, before), translator === undefined ? undefined : eq(orders.translator, translator)))
        .orderBy(asc(orders.statusAt), asc(orders.id)).limit(limit).all(),

    /** The price of the account's orders not yet paid: what its `reserved` must be. */
    unpaidTotal: (accountId: number): number =>
      db.select({ total: sql<number>`coalesce(sum(${orders.price}), 0)` }).from(orders)
        .where(and(eq(orders.accountId, accountId), eq(orders.paid, false))).get()!.total,

    /** In transaction: changes the order only while it is still in `from`; undefined otherwise. */
    transition: (id: number, from: OrderStatus[], patch: Partial<NewOrder>): OrderRow | undefined =>
      db.update(orders).set(patch).where(and(eq(orders.id, id), inArray(orders.status, from))).returning().get(),

    /** In transaction: deletes the order, its comments and the images no comment uses any more. */
    deleteOrder(id: number): void {
      db.delete(orders).where(eq(orders.id, id)).run();
      db.delete(attachments).where(notInArray(attachments.id, db.select({ id: links.attachmentId }).from(links))).run();
    },

    /** In transaction: stores an image once; comments link to it. */
    insertAttachment: (a: AttachmentRow): number => db.insert(attachments).values(a).returning({ id: attachments.id }).get().id,

    /** In transaction. */
    addComment(orderId: number, c: { role: Role; author: string; text: string; attachmentIds: number[]; now: number }): void {
      const { id } = db.insert(comments).values({ orderId, role: c.role, author: c.author, text: c.text, createdAt: c.now }).returning({ id: comments.id }).get();
      c.attachmentIds.forEach((attachmentId, position) => db.insert(links).values({ commentId: id, attachmentId, position }).run());
    },

    comments(orderId: number): CommentRow[] {
      const rows = db.select().from(comments).where(eq(comments.orderId, orderId)).orderBy(asc(comments.id)).all();
      if (rows.length === 0) return [];
      const images = db
        .select({ commentId: links.commentId, type: attachments.type, name: attachments.name, weight: attachments.weight, size: attachments.size, data: attachments.data })
        .from(links).innerJoin(attachments, eq(links.attachmentId, attachments.id))
        .where(inArray(links.commentId, rows.map((r) => r.id))).orderBy(asc(links.position)).all();
      return rows.map((r) => ({ ...r, attachments: images.filter((i) => i.commentId === r.id).map(({ commentId: _, ...a }) => a) }));
    },
  };
}

export type TranslateStore = ReturnType<typeof createTranslateStore>;
