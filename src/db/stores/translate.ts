import { and, asc, desc, eq, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import type { AccountRow, Move, NewOrder, TranslateStore } from "../../translate/contract";
import { columnsOf, name, names, rowValues, setOf, valuesOf, type Dialect } from "./dialect";

/**
 * The translation store on either backend (translate/contract.ts says what each method returns
 * and throws). Statements that do not vary are prepared once; the others (optional filters, IN
 * lists, a patch of any columns) are built per call (dialect.ts).
 *
 * What SQLite gets from its one writer (its transactions take turns, BEGIN IMMEDIATE), PostgreSQL
 * gets from locks, READ COMMITTED:
 * - accountForUpdate locks the account row until the commit (FOR UPDATE), so two instances
 *   placing orders on one account take turns between reading the balance and reserving from it;
 * - transition and deleteOrder are single statements whose WHERE re-reads the status of a row a
 *   concurrent transaction changed once it commits, so only one of two racing changes applies;
 *   deleteOrder first reads the order's images, locked (a plain read on SQLite);
 * - createAccount picks max(id) + 1 under a transaction lock (PostgreSQL's advisory lock), so two
 *   instances creating accounts at once never pick the same id.
 */
export function createTranslateStore(d: Dialect): TranslateStore {
  const {
    translateAccounts: accounts,
    translateOrders: orders,
    translateComments: comments,
    translateAttachments: attachments,
    translateCommentAttachments: links,
    translateLedger: ledger,
    translateAccountKeys: accountKeys,
  } = d.tables;
  const account = columnsOf(accounts);
  const order = columnsOf(orders);
  type Id = { id: number };

  const accountById = d.query<typeof account, Id>(account, (cols, p) => sql`SELECT ${cols} FROM ${accounts} WHERE ${accounts.id} = ${p.id}`);
  const accountForUpdate = d.query<typeof account, Id>(account, (cols, p) => sql`SELECT ${cols} FROM ${accounts} WHERE ${accounts.id} = ${p.id}${d.forUpdate}`);
  const allAccounts = d.query(account, (cols) => sql`SELECT ${cols} FROM ${accounts} ORDER BY ${accounts.id}`);
  const seed = d.query<typeof account, AccountRow>(
    account,
    (cols) => sql`INSERT INTO ${accounts} ${rowValues(accounts)} ON CONFLICT ${names(accounts.id)} DO NOTHING RETURNING ${cols}`,
  );
  const insertAccount = d.prepare<AccountRow>(() => sql`INSERT INTO ${accounts} ${rowValues(accounts)}`);
  const insertKey = d.prepare<typeof accountKeys.$inferSelect>(() => sql`INSERT INTO ${accountKeys} ${rowValues(accountKeys)}`);
  const topId = d.query({ max: sql<number>`coalesce(max(${accounts.id}), 0)`.mapWith(Number) }, (cols) => sql`SELECT ${cols} FROM ${accounts}`);
  const accountOfKey = d.query<{ id: typeof accountKeys.accountId }, { keySha256: string }>(
    { id: accountKeys.accountId },
    (cols, p) => sql`SELECT ${cols} FROM ${accountKeys} WHERE ${accountKeys.keySha256} = ${p.keySha256}`,
  );
  const moveMoney = d.query<typeof account, { id: number; balance: number; reserved: number }>(
    account,
    (
      cols,
      p,
    ) => sql`UPDATE ${accounts} SET ${name(accounts.balance)} = ${accounts.balance} + ${p.balance}, ${name(accounts.reserved)} = ${accounts.reserved} + ${p.reserved}
      WHERE ${accounts.id} = ${p.id} RETURNING ${cols}`,
  );
  const entry = columnsOf(ledger);
  const { id: _, ...newEntry } = entry;
  const appendEntry = d.prepare<{ [K in keyof typeof newEntry]: (typeof ledger.$inferSelect)[K] }>(
    (p) =>
      sql`INSERT INTO ${ledger} ${names(...Object.values(newEntry))} VALUES (${sql.join(
        Object.keys(newEntry).map((k) => p[k as keyof typeof newEntry]),
        sql`, `,
      )})`,
  );
  const setOverdraft = d.query<typeof account, { id: number; allowed: boolean }>(
    account,
    (cols, p) => sql`UPDATE ${accounts} SET ${name(accounts.overdraft)} = ${p.allowed} WHERE ${accounts.id} = ${p.id} RETURNING ${cols}`,
  );
  const ledgerOf = d.query<typeof entry, { accountId: number }>(
    entry,
    (cols, p) => sql`SELECT ${cols} FROM ${ledger} WHERE ${ledger.accountId} = ${p.accountId} ORDER BY ${ledger.id}`,
  );
  const orderById = d.query<typeof order, Id>(order, (cols, p) => sql`SELECT ${cols} FROM ${orders} WHERE ${orders.id} = ${p.id}`);
  const unpaidTotal = d.query<{ total: SQL<number> }, { accountId: number }>(
    { total: sql<number>`coalesce(sum(${orders.price}), 0)`.mapWith(Number) },
    (cols, p) => sql`SELECT ${cols} FROM ${orders} WHERE ${orders.accountId} = ${p.accountId} AND ${orders.paid} = ${false}`,
  );
  // The order's images, locked in id order on PostgreSQL: of two orders sharing an image deleted
  // at once, the second sees the first's links gone after it commits and deletes the image itself.
  const lockImagesOf = d.query<{ id: typeof attachments.id }, Id>(
    { id: attachments.id },
    (cols, p) => sql`SELECT ${cols} FROM ${attachments} WHERE ${attachments.id} IN (
      SELECT ${links.attachmentId} FROM ${links} INNER JOIN ${comments} ON ${links.commentId} = ${comments.id} WHERE ${comments.orderId} = ${p.id})
      ORDER BY ${attachments.id}${d.forUpdate}`,
  );
  const unusedImages = d.prepare(
    () => sql`DELETE FROM ${attachments} WHERE NOT EXISTS (SELECT 1 FROM ${links} WHERE ${links.attachmentId} = ${attachments.id})`,
  );
  const insertAttachment = d.query<{ id: typeof attachments.id }, Omit<typeof attachments.$inferSelect, "id">>(
    { id: attachments.id },
    (cols, p) => sql`INSERT INTO ${attachments} ${names(attachments.type, attachments.name, attachments.weight, attachments.size, attachments.data)}
      VALUES (${p.type}, ${p.name}, ${p.weight}, ${p.size}, ${p.data}) RETURNING ${cols}`,
  );
  const insertComment = d.query<{ id: typeof comments.id }, Omit<typeof comments.$inferSelect, "id">>(
    { id: comments.id },
    (cols, p) => sql`INSERT INTO ${comments} ${names(comments.orderId, comments.role, comments.author, comments.text, comments.createdAt)}
      VALUES (${p.orderId}, ${p.role}, ${p.author}, ${p.text}, ${p.createdAt}) RETURNING ${cols}`,
  );
  const commentsOf = d.query<ReturnType<typeof columnsOf<typeof comments>>, { orderId: number }>(
    columnsOf(comments),
    (cols, p) => sql`SELECT ${cols} FROM ${comments} WHERE ${comments.orderId} = ${p.orderId} ORDER BY ${comments.id}`,
  );

  /** In transaction: the money move and its ledger entry (on PostgreSQL the UPDATE locks the account row). */
  async function move(accountId: number, m: Move): Promise<AccountRow> {
    const row = await moveMoney.get({ id: accountId, balance: m.balance, reserved: m.reserved });
    if (!row) throw new Error(`translate store: no account ${accountId} to move money on`);
    await appendEntry.run({
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
   * A new order, or one with the id the caller chose: PostgreSQL's GENERATED ALWAYS takes that
   * only with OVERRIDING SYSTEM VALUE, and the sequence then moves past it, as SQLite's
   * AUTOINCREMENT does.
   */
  async function insertOrder(values: NewOrder) {
    const [row] = await d.rows(
      order,
      (cols) => sql`INSERT INTO ${orders} ${valuesOf(orders, [values], values.id === undefined ? sql`` : d.overriding)} RETURNING ${cols}`,
    );
    if (values.id !== undefined) await d.idsPast(orders, values.id);
    return row!;
  }

  return {
    dialect: d.dialect,
    transaction: d.transaction,

    account: (id) => accountById.get({ id }),
    accountForUpdate: (id) => accountForUpdate.get({ id }),
    accounts: () => allAccounts.all({}),

    async seedAccount(id, balance, overdraft, now) {
      // Two instances seeding at once: the second waits for the first's row, then inserts nothing.
      const created = await seed.get({ id, balance: 0, reserved: 0, overdraft, createdAt: now });
      if (created) await move(id, { entry: "opening", balance, reserved: 0, actor: "config", now });
    },

    clear: () => d.clear([links, comments, attachments, orders, ledger, accountKeys, accounts]),

    async createAccount(balance, overdraft, keySha256, actor, now) {
      await d.lock("translateAccountIds");
      const id = (await topId.get({}))!.max + 1;
      await insertAccount.run({ id, balance: 0, reserved: 0, overdraft, createdAt: now });
      await insertKey.run({ keySha256, accountId: id, createdAt: now });
      return move(id, { entry: "opening", balance, reserved: 0, actor, now });
    },

    accountOfKey: async (keySha256) => (await accountOfKey.get({ keySha256 }))?.id,

    move,

    setOverdraft: (id, allowed) => setOverdraft.get({ id, allowed }),

    ledger: (accountId) => ledgerOf.all({ accountId }),

    insertOrder,
    order: (id) => orderById.get({ id }),

    orders(q) {
      const where: SQL[] = [];
      if (q.accountId !== undefined) where.push(eq(orders.accountId, q.accountId));
      if (q.statuses) where.push(inArray(orders.status, q.statuses));
      if (q.visibleTo !== undefined) where.push(or(inArray(orders.status, ["QUEUE", "REVISION"]), eq(orders.translator, q.visibleTo))!);
      const filter = where.length > 0 ? sql` WHERE ${and(...where)}` : sql``;
      return d.rows(
        order,
        (cols) =>
          sql`SELECT ${cols} FROM ${orders}${filter} ORDER BY ${q.sort === "asc" ? asc(orders.id) : desc(orders.id)} LIMIT ${q.perPage} OFFSET ${q.page * q.perPage}`,
      );
    },

    due: (statuses, before, limit, translator) =>
      d.rows(
        order,
        (cols) => sql`SELECT ${cols} FROM ${orders}
          WHERE ${and(inArray(orders.status, statuses), lte(orders.statusAt, before), translator === undefined ? undefined : eq(orders.translator, translator))}
          ORDER BY ${orders.statusAt}, ${orders.id} LIMIT ${limit}`,
      ),

    unpaidTotal: async (accountId) => (await unpaidTotal.get({ accountId }))!.total,

    async transition(id, from, patch) {
      const { id: _, ...set } = patch;
      const [row] = await d.rows(
        order,
        (cols) => sql`UPDATE ${orders} SET ${setOf(orders, set)} WHERE ${and(eq(orders.id, id), inArray(orders.status, from))} RETURNING ${cols}`,
      );
      return row;
    },

    async deleteOrder(id, from) {
      await lockImagesOf.all({ id });
      const deleted = await d.run(sql`DELETE FROM ${orders} WHERE ${and(eq(orders.id, id), inArray(orders.status, from))}`);
      if (deleted === 0) return false;
      await unusedImages.run({});
      return true;
    },

    insertAttachment: async (a) => (await insertAttachment.get(a))!.id,

    async addComment(orderId, c) {
      const comment = await insertComment.get({ orderId, role: c.role, author: c.author, text: c.text, createdAt: c.now });
      if (c.attachmentIds.length > 0) {
        const rows = c.attachmentIds.map((attachmentId, position) => ({ commentId: comment!.id, attachmentId, position }));
        await d.run(sql`INSERT INTO ${links} ${valuesOf(links, rows)}`);
      }
    },

    async comments(orderId) {
      const rows = await commentsOf.all({ orderId });
      if (rows.length === 0) return [];
      const images = await d.rows(
        {
          commentId: links.commentId,
          type: attachments.type,
          name: attachments.name,
          weight: attachments.weight,
          size: attachments.size,
          data: attachments.data,
        },
        (cols) => sql`SELECT ${cols} FROM ${links} INNER JOIN ${attachments} ON ${links.attachmentId} = ${attachments.id}
          WHERE ${inArray(
            links.commentId,
            rows.map((r) => r.id),
          )} ORDER BY ${links.position}`,
      );
      return rows.map((r) => ({ ...r, attachments: images.filter((i) => i.commentId === r.id).map(({ commentId: _, ...a }) => a) }));
    },
  };
}
