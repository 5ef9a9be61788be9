import type { SQL } from "bun";
import { and, asc, desc, eq, inArray, lte, notExists, or, sql } from "drizzle-orm";
import { drizzle, type BunSQLDatabase } from "drizzle-orm/bun-sql";
import type { AccountRow, Move, NewOrder, TranslateStore } from "../../translate/contract";
import {
  translateAccountKeys as accountKeys,
  translateAccounts as accounts,
  translateAttachments as attachments,
  translateCommentAttachments as links,
  translateComments as comments,
  translateLedger as ledger,
  translateOrders as orders,
} from "../../schema/pg";
import { LOCK_SPACE } from "./attempt-queue";
import type { PgTransactor } from "./transactor";

const clients = new WeakMap<SQL, BunSQLDatabase>();

/**
 * The translation store on PostgreSQL (translate/contract.ts says what each method returns and
 * throws), written with drizzle over the pg-core tables, statement for statement like the SQLite
 * store (db/sqlite/translate-store.ts says why the two are not one). Each call runs on the flow's open transaction, or the pool outside one (t.exec()).
 *
 * What SQLite gets from its one writer, PostgreSQL gets from row locks, READ COMMITTED:
 * - accountForUpdate locks the account row until the commit, so two instances placing orders on
 *   one account take turns between reading the balance and reserving from it;
 * - transition and deleteOrder are single statements whose WHERE re-reads the status of a row a
 *   concurrent transaction changed once it commits, so only one of two racing changes applies;
 * - createAccount picks max(id) + 1 under a transaction advisory lock, so two instances creating
 *   accounts at once never pick the same id.
 */
export function createPgTranslateStore(t: PgTransactor): TranslateStore {
  const db = (): BunSQLDatabase => {
    const client = t.exec();
    let d = clients.get(client);
    if (!d) clients.set(client, (d = drizzle({ client })));
    return d;
  };
  const first = <T>(rows: T[]): T | undefined => rows[0];
  const account = async (id: number) => first(await db().select().from(accounts).where(eq(accounts.id, id)));

  /** In transaction: the money move and its ledger entry (the UPDATE locks the account row). */
  async function move(accountId: number, m: Move): Promise<AccountRow> {
    const row = first(
      await db()
        .update(accounts)
        .set({ balance: sql`${accounts.balance} + ${m.balance}`, reserved: sql`${accounts.reserved} + ${m.reserved}` })
        .where(eq(accounts.id, accountId))
        .returning(),
    );
    if (!row) throw new Error(`translate store: no account ${accountId} to move money on`);
    await db()
      .insert(ledger)
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
      });
    return row;
  }

  /**
   * A new order, or one with the id the caller chose: GENERATED ALWAYS takes that only with
   * OVERRIDING SYSTEM VALUE, and the sequence then moves past it, as SQLite's AUTOINCREMENT does.
   */
  async function insertOrder(values: NewOrder) {
    const { id, ...rest } = values;
    if (id === undefined) return (await db().insert(orders).values(rest).returning())[0]!;
    const [row] = await db()
      .insert(orders)
      .overridingSystemValue()
      .values({ ...rest, id })
      .returning();
    await t
      .exec()
      .unsafe(`SELECT setval('translate_orders_id_seq', $1) WHERE $1 > (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM translate_orders_id_seq)`, [
        id,
      ]);
    return row!;
  }

  return {
    dialect: "postgres",
    transaction: t.transaction,

    account,
    accountForUpdate: async (id) => first(await db().select().from(accounts).where(eq(accounts.id, id)).for("update")),
    accounts: () => db().select().from(accounts).orderBy(asc(accounts.id)),

    async seedAccount(id, balance, overdraft, now) {
      // Two instances seeding at once: the second waits for the first's row, then inserts nothing.
      const created = first(await db().insert(accounts).values({ id, balance: 0, overdraft, createdAt: now }).onConflictDoNothing().returning());
      if (created) await move(id, { entry: "opening", balance, reserved: 0, actor: "config", now });
    },

    async clear() {
      // One statement for the tables that reference each other; the identities start again from 1.
      await t.exec().unsafe(
        `TRUNCATE translate_comment_attachments, translate_comments, translate_attachments, translate_orders,
           translate_ledger, translate_account_keys, translate_accounts RESTART IDENTITY`,
      );
    },

    async createAccount(balance, overdraft, keySha256, actor, now) {
      await t.exec().unsafe(`SELECT pg_advisory_xact_lock($1, 0)`, [LOCK_SPACE.translateAccountIds]);
      const [top] = await db()
        .select({ max: sql`coalesce(max(${accounts.id}), 0)`.mapWith(Number) })
        .from(accounts);
      const id = top!.max + 1;
      await db().insert(accounts).values({ id, balance: 0, overdraft, createdAt: now });
      await db().insert(accountKeys).values({ keySha256, accountId: id, createdAt: now });
      return move(id, { entry: "opening", balance, reserved: 0, actor, now });
    },

    accountOfKey: async (keySha256) =>
      first(await db().select({ id: accountKeys.accountId }).from(accountKeys).where(eq(accountKeys.keySha256, keySha256)))?.id,

    move,

    setOverdraft: async (id, allowed) => first(await db().update(accounts).set({ overdraft: allowed }).where(eq(accounts.id, id)).returning()),

    ledger: (accountId) => db().select().from(ledger).where(eq(ledger.accountId, accountId)).orderBy(asc(ledger.id)),

    insertOrder,
    order: async (id) => first(await db().select().from(orders).where(eq(orders.id, id))),

    orders(q) {
      const where = [];
      if (q.accountId !== undefined) where.push(eq(orders.accountId, q.accountId));
      if (q.statuses) where.push(inArray(orders.status, q.statuses));
      if (q.visibleTo !== undefined) where.push(or(inArray(orders.status, ["QUEUE", "REVISION"]), eq(orders.translator, q.visibleTo)));
      return db()
        .select()
        .from(orders)
        .where(and(...where))
        .orderBy(q.sort === "asc" ? asc(orders.id) : desc(orders.id))
        .limit(q.perPage)
        .offset(q.page * q.perPage);
    },

    due: (statuses, before, limit, translator) =>
      db()
        .select()
        .from(orders)
        .where(and(inArray(orders.status, statuses), lte(orders.statusAt, before), translator === undefined ? undefined : eq(orders.translator, translator)))
        .orderBy(asc(orders.statusAt), asc(orders.id))
        .limit(limit),

    // sum(bigint) is numeric, which the client reads as a string.
    unpaidTotal: async (accountId) =>
      (
        await db()
          .select({ total: sql`coalesce(sum(${orders.price}), 0)`.mapWith(Number) })
          .from(orders)
          .where(and(eq(orders.accountId, accountId), eq(orders.paid, false)))
      )[0]!.total,

    async transition(id, from, patch) {
      const { id: _, ...set } = patch;
      return first(
        await db()
          .update(orders)
          .set(set)
          .where(and(eq(orders.id, id), inArray(orders.status, from)))
          .returning(),
      );
    },

    async deleteOrder(id, from) {
      // The order's images, locked in id order: of two orders sharing an image deleted at once,
      // the second sees the first's links gone after it commits and deletes the image itself.
      await db()
        .select({ id: attachments.id })
        .from(attachments)
        .where(
          inArray(
            attachments.id,
            db().select({ id: links.attachmentId }).from(links).innerJoin(comments, eq(links.commentId, comments.id)).where(eq(comments.orderId, id)),
          ),
        )
        .orderBy(asc(attachments.id))
        .for("update");
      const deleted = first(
        await db()
          .delete(orders)
          .where(and(eq(orders.id, id), inArray(orders.status, from)))
          .returning({ id: orders.id }),
      );
      if (!deleted) return false;
      await db()
        .delete(attachments)
        .where(notExists(db().select({ one: sql`1` }).from(links).where(eq(links.attachmentId, attachments.id))));
      return true;
    },

    insertAttachment: async (a) => (await db().insert(attachments).values(a).returning({ id: attachments.id }))[0]!.id,

    async addComment(orderId, c) {
      const [comment] = await db()
        .insert(comments)
        .values({ orderId, role: c.role, author: c.author, text: c.text, createdAt: c.now })
        .returning({ id: comments.id });
      if (c.attachmentIds.length > 0) {
        await db()
          .insert(links)
          .values(c.attachmentIds.map((attachmentId, position) => ({ commentId: comment!.id, attachmentId, position })));
      }
    },

    async comments(orderId) {
      const rows = await db().select().from(comments).where(eq(comments.orderId, orderId)).orderBy(asc(comments.id));
      if (rows.length === 0) return [];
      const images = await db()
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
        .orderBy(asc(links.position));
      return rows.map((r) => ({ ...r, attachments: images.filter((i) => i.commentId === r.id).map(({ commentId: _, ...a }) => a) }));
    },
  };
}
