import { and, asc, desc, eq, inArray, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../open";
import { sqliteTransactor } from "../transactor";
import {
  translateAccountKeys as accountKeys,
  translateAccounts as accounts,
  translateAttachments as attachments,
  translateCommentAttachments as links,
  translateComments as comments,
  translateLedger as ledger,
  translateOrders as orders,
} from "../../schema/sqlite";
import type { AccountRow, Move, TranslateStore } from "../../translate/contract";

/**
 * The translation store on SQLite (translate/contract.ts says what each method returns and
 * throws), beside PostgreSQL's (db/pg/translate-store.ts) rather than written once with the
 * other stores (db/stores/dialect.ts): it is drizzle's query builder over the schema already, its
 * rows are the schema's, and what is left to share is what that layer does not serve: queries
 * built per call (optional filters, IN lists of any length, a patch of any columns). A third of
 * its methods differ by design besides: clear (TRUNCATE ... RESTART IDENTITY there, DELETE and
 * sqlite_sequence here), an order inserted with its id (OVERRIDING SYSTEM VALUE and setval there),
 * and the locks PostgreSQL takes (accountForUpdate, createAccount's advisory lock, deleteOrder's
 * attachments) where SQLite's transactions take turns.
 *
 * bun:sqlite answers synchronously, so the methods run their statement and resolve at once;
 * transactions take turns on the one connection (db/transactor.ts) and BEGIN IMMEDIATE holds the
 * write lock, so reading an account and then moving its money needs no row lock here.
 */
export function createTranslateStore(db: Db): TranslateStore {
  const { dialect, transaction } = sqliteTransactor(db.$client);
  const account = (id: number) => db.select().from(accounts).where(eq(accounts.id, id)).get();

  /** In transaction: the money move and its ledger entry. */
  function move(accountId: number, m: Move): AccountRow {
    const row = db
      .update(accounts)
      .set({ balance: sql`${accounts.balance} + ${m.balance}`, reserved: sql`${accounts.reserved} + ${m.reserved}` })
      .where(eq(accounts.id, accountId))
      .returning()
      .get();
    if (!row) throw new Error(`translate store: no account ${accountId} to move money on`);
    db.insert(ledger)
      .values({
        accountId,
        orderId: m.orderId ?? null,
        entry: m.entry,
        balanceDelta: m.balance,
        reservedDelta: m.reserved,
        balanceAfter: row.balance,
        reservedAfter: row.reserved,
        actor: m.actor,
        createdAt: m.now,
      })
      .run();
    return row;
  }

  return {
    dialect,
    transaction,

    account: async (id) => account(id),
    accountForUpdate: async (id) => account(id),
    accounts: async () => db.select().from(accounts).orderBy(asc(accounts.id)).all(),

    async seedAccount(id, balance, overdraft, now) {
      const created = db.insert(accounts).values({ id, balance: 0, overdraft, createdAt: now }).onConflictDoNothing().returning().get();
      if (created) move(id, { entry: "opening", balance, reserved: 0, actor: "config", now });
    },

    async clear() {
      for (const table of [links, comments, attachments, orders, ledger, accountKeys, accounts]) db.delete(table).run();
      // AUTOINCREMENT keeps its counters in sqlite_sequence.
      db.$client.run("DELETE FROM sqlite_sequence WHERE name IN ('translate_orders', 'translate_comments', 'translate_attachments', 'translate_ledger')");
    },

    async createAccount(balance, overdraft, keySha256, actor, now) {
      const id =
        db
          .select({ max: sql<number>`coalesce(max(${accounts.id}), 0)` })
          .from(accounts)
          .get()!.max + 1;
      db.insert(accounts).values({ id, balance: 0, overdraft, createdAt: now }).run();
      db.insert(accountKeys).values({ keySha256, accountId: id, createdAt: now }).run();
      return move(id, { entry: "opening", balance, reserved: 0, actor, now });
    },

    accountOfKey: async (keySha256) => db.select({ id: accountKeys.accountId }).from(accountKeys).where(eq(accountKeys.keySha256, keySha256)).get()?.id,

    move: async (accountId, m) => move(accountId, m),

    setOverdraft: async (id, allowed) => db.update(accounts).set({ overdraft: allowed }).where(eq(accounts.id, id)).returning().get(),

    ledger: async (accountId) => db.select().from(ledger).where(eq(ledger.accountId, accountId)).orderBy(asc(ledger.id)).all(),

    insertOrder: async (values) => db.insert(orders).values(values).returning().get(),
    order: async (id) => db.select().from(orders).where(eq(orders.id, id)).get(),

    async orders(q) {
      const where: SQL[] = [];
      if (q.accountId !== undefined) where.push(eq(orders.accountId, q.accountId));
      if (q.statuses) where.push(inArray(orders.status, q.statuses));
      if (q.visibleTo !== undefined) where.push(or(inArray(orders.status, ["QUEUE", "REVISION"]), eq(orders.translator, q.visibleTo))!);
      return db
        .select()
        .from(orders)
        .where(and(...where))
        .orderBy(q.sort === "asc" ? asc(orders.id) : desc(orders.id))
        .limit(q.perPage)
        .offset(q.page * q.perPage)
        .all();
    },

    due: async (statuses, before, limit, translator) =>
      db
        .select()
        .from(orders)
        .where(and(inArray(orders.status, statuses), lte(orders.statusAt, before), translator === undefined ? undefined : eq(orders.translator, translator)))
        .orderBy(asc(orders.statusAt), asc(orders.id))
        .limit(limit)
        .all(),

    unpaidTotal: async (accountId) =>
      db
        .select({ total: sql<number>`coalesce(sum(${orders.price}), 0)` })
        .from(orders)
        .where(and(eq(orders.accountId, accountId), eq(orders.paid, false)))
        .get()!.total,

    transition: async (id, from, patch) =>
      db
        .update(orders)
        .set(patch)
        .where(and(eq(orders.id, id), inArray(orders.status, from)))
        .returning()
        .get(),

    async deleteOrder(id, from) {
      const deleted = db
        .delete(orders)
        .where(and(eq(orders.id, id), inArray(orders.status, from)))
        .returning({ id: orders.id })
        .get();
      if (!deleted) return false;
      db.delete(attachments)
        .where(notInArray(attachments.id, db.select({ id: links.attachmentId }).from(links)))
        .run();
      return true;
    },

    insertAttachment: async (a) => db.insert(attachments).values(a).returning({ id: attachments.id }).get().id,

    async addComment(orderId, c) {
      const { id } = db
        .insert(comments)
        .values({ orderId, role: c.role, author: c.author, text: c.text, createdAt: c.now })
        .returning({ id: comments.id })
        .get();
      c.attachmentIds.forEach((attachmentId, position) => db.insert(links).values({ commentId: id, attachmentId, position }).run());
    },

    async comments(orderId) {
      const rows = db.select().from(comments).where(eq(comments.orderId, orderId)).orderBy(asc(comments.id)).all();
      if (rows.length === 0) return [];
      const images = db
        .select({
          commentId: links.commentId,
          type: attachments.type,
          name: attachments.name,
          weight: attachments.weight,
          size: attachments.size,
          data: attachments.data,
        })
        .from(links)
        .innerJoin(attachments, eq(links.attachmentId, attachments.id))
        .where(
          inArray(
            links.commentId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(links.position))
        .all();
      return rows.map((r) => ({ ...r, attachments: images.filter((i) => i.commentId === r.id).map(({ commentId: _, ...a }) => a) }));
    },
  };
}
