/**
 * One contract suite for the translation store on both backends: SQLite (in memory) and
 * PostgreSQL (a fresh database on the test cluster). The races SQLite cannot produce (it has one
 * writer) are in store-races.test.ts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { openDatabase } from "../../src/db/sqlite/open";
import { migratePostgres } from "../../src/db/pg/migrate";
import { openPostgres } from "../../src/db/pg/open";
import { pgTransactor } from "../../src/db/pg/transactor";
import type { TranslateStore } from "../../src/translate/contract";
import { pgDialect, sqliteDialect } from "../../src/db/stores/dialect";
import { createTranslateStore } from "../../src/db/stores/translate";
import { freshDatabase } from "../helpers/postgres";
import { newOrder } from "./new-order";

type Backend = {
  store: TranslateStore;
  /** Another store on the same database: on PostgreSQL its own pool, as another instance has. */
  another(): Promise<TranslateStore>;
  /** How many rows a table holds, read past the store. */
  count(table: string): Promise<number>;
  close(): Promise<void>;
};

const backends: Record<string, () => Promise<Backend>> = {
  sqlite: async () => {
    const db = openDatabase({ path: ":memory:", durability: "normal" });
    return {
      store: createTranslateStore(sqliteDialect(db.$client)),
      another: async () => createTranslateStore(sqliteDialect(db.$client)),
      count: async (table) => (db.$client.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
      close: async () => db.$client.close(),
    };
  },
  postgres: async () => {
    const url = await freshDatabase();
    const sql = await openPostgres(url);
    await migratePostgres(sql);
    const others: { close(): Promise<void> }[] = [];
    return {
      store: createTranslateStore(pgDialect(pgTransactor(sql))),
      async another() {
        const other = await openPostgres(url);
        others.push(other);
        return createTranslateStore(pgDialect(pgTransactor(other)));
      },
      count: async (table) => Number((await sql.unsafe(`SELECT count(*) AS n FROM ${table}`))[0].n),
      async close() {
        for (const o of others) await o.close();
        await sql.close();
      },
    };
  },
};

const open: Backend[] = [];
afterAll(async () => {
  for (const b of open) await b.close();
});

const image = (name: string) => ({ type: "image/png", name, weight: 33, size: "1x2", data: `data-of-${name}` });

for (const [name, make] of Object.entries(backends)) {
  describe(`translate store contract on ${name}`, () => {
    const start = async () => {
      const b = await make();
      open.push(b);
      return b;
    };

    test("seeded accounts: an opening ledger entry once; lookups, overdraft, money past 32 bits", async () => {
      const { store } = await start();
      await store.transaction(async () => {
        await store.seedAccount(7, 900_000_000_000, false, 10);
        await store.seedAccount(2, -500, true, 11);
      });
      await store.transaction(() => store.seedAccount(7, 1, true, 12)); // exists: nothing changes
      expect(await store.account(7)).toEqual({ id: 7, balance: 900_000_000_000, reserved: 0, overdraft: false, createdAt: 10 });
      expect(await store.account(3)).toBeUndefined();
      expect((await store.accounts()).map((a) => a.id)).toEqual([2, 7]);
      expect(await store.transaction(() => store.accountForUpdate(2))).toEqual({ id: 2, balance: -500, reserved: 0, overdraft: true, createdAt: 11 });
      expect(await store.transaction(() => store.accountForUpdate(3))).toBeUndefined();
      expect(await store.ledger(7)).toEqual([
        {
          id: 1,
          accountId: 7,
          orderId: null,
          entry: "opening",
          balanceDelta: 900_000_000_000,
          reservedDelta: 0,
          balanceAfter: 900_000_000_000,
          reservedAfter: 0,
          actor: "config",
          createdAt: 10,
        },
      ]);
      expect(await store.ledger(3)).toEqual([]);
      expect(await store.transaction(() => store.setOverdraft(7, true))).toMatchObject({ id: 7, overdraft: true, balance: 900_000_000_000 });
      expect(await store.transaction(() => store.setOverdraft(3, true))).toBeUndefined();
    });

    test("created accounts take the next id and one key; a stored key's hash rejects with nothing committed", async () => {
      const { store } = await start();
      await store.transaction(() => store.seedAccount(4, 100, false, 1));
      const created = await store.transaction(() => store.createAccount(2_500, true, "a".repeat(64), "admin:root", 20));
      expect(created).toEqual({ id: 5, balance: 2_500, reserved: 0, overdraft: true, createdAt: 20 });
      expect(await store.accountOfKey("a".repeat(64))).toBe(5);
      expect(await store.accountOfKey("b".repeat(64))).toBeUndefined();
      expect((await store.ledger(5)).map((l) => [l.entry, l.balanceDelta, l.actor])).toEqual([["opening", 2_500, "admin:root"]]);
      await expect(store.transaction(() => store.createAccount(1, false, "a".repeat(64), "admin:root", 21))).rejects.toThrow();
      expect((await store.accounts()).map((a) => a.id)).toEqual([4, 5]);
    });

    test("money moves: balance and reserved change by the deltas, each with a ledger entry; a failed transaction keeps nothing", async () => {
      const { store } = await start();
      await store.transaction(() => store.seedAccount(1, 1_000, false, 1));
      const after = await store.transaction(async () => {
        await store.move(1, { entry: "reserve", balance: -300, reserved: 300, actor: "customer", now: 2, orderId: 9 });
        return store.move(1, { entry: "spend", balance: 0, reserved: -300, actor: "translator", now: 3, orderId: 9 });
      });
      expect(after).toEqual({ id: 1, balance: 700, reserved: 0, overdraft: false, createdAt: 1 });
      expect(
        (await store.ledger(1)).map((l) => [l.id, l.entry, l.orderId, l.balanceDelta, l.reservedDelta, l.balanceAfter, l.reservedAfter, l.createdAt]),
      ).toEqual([
        [1, "opening", null, 1_000, 0, 1_000, 0, 1],
        [2, "reserve", 9, -300, 300, 700, 300, 2],
        [3, "spend", 9, 0, -300, 700, 0, 3],
      ]);
      await expect(
        store.transaction(async () => {
          await store.move(1, { entry: "top_up", balance: 50, reserved: 0, actor: "admin", now: 4 });
          throw new Error("no");
        }),
      ).rejects.toThrow("no");
      await expect(store.transaction(() => store.move(99, { entry: "top_up", balance: 1, reserved: 0, actor: "admin", now: 5 }))).rejects.toThrow();
      expect((await store.account(1))!.balance).toBe(700);
      expect(await store.ledger(1)).toHaveLength(3);
    });

    test("orders: ids from 1, pages in either order, filters by account, status and translator; due work oldest first", async () => {
      const { store } = await start();
      const placed = await store.transaction(async () => {
        const out = [];
        for (let i = 0; i < 6; i++) out.push(await store.insertOrder(newOrder({ accountId: i % 2 ? 2 : 1, price: 100 + i, statusAt: 1000 - i })));
        return out;
      });
      expect(placed.map((o) => o.id)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(await store.order(1)).toEqual({
        ...newOrder({ price: 100, statusAt: 1000 }),
        id: 1,
        paid: false,
        targetText: null,
        translator: null,
        acceptedAt: null,
        completedAt: null,
      });
      expect(await store.order(99)).toBeUndefined();
      const ids = async (q: Parameters<TranslateStore["orders"]>[0]) => (await store.orders(q)).map((o) => o.id);
      expect(await ids({ sort: "asc", page: 0, perPage: 4 })).toEqual([1, 2, 3, 4]);
      expect(await ids({ sort: "asc", page: 1, perPage: 4 })).toEqual([5, 6]);
      expect(await ids({ sort: "desc", page: 0, perPage: 4 })).toEqual([6, 5, 4, 3]);
      expect(await ids({ sort: "desc", page: 2, perPage: 4 })).toEqual([]);
      expect(await ids({ accountId: 2, sort: "desc", page: 0, perPage: 10 })).toEqual([6, 4, 2]);

      await store.transaction(async () => {
        await store.transition(2, ["QUEUE"], { status: "PROGRESS", translator: "tr-a", acceptedAt: 2000, statusAt: 2000 });
        await store.transition(3, ["QUEUE"], { status: "PROGRESS", translator: "tr-b", acceptedAt: 2001, statusAt: 1000 });
        await store.transition(4, ["QUEUE"], { status: "DONE", translator: "tr-a", targetText: "Hallo", completedAt: 2002, paid: true, statusAt: 2002 });
        await store.transition(5, ["QUEUE"], { status: "REVISION", translator: "tr-b", statusAt: 2003 });
      });
      expect(await ids({ statuses: ["PROGRESS", "DONE"], sort: "asc", page: 0, perPage: 10 })).toEqual([2, 3, 4]);
      expect(await ids({ visibleTo: "tr-a", sort: "asc", page: 0, perPage: 10 })).toEqual([1, 2, 4, 5, 6]);
      expect(await ids({ accountId: 1, visibleTo: "tr-b", statuses: ["PROGRESS", "REVISION"], sort: "asc", page: 0, perPage: 10 })).toEqual([3, 5]);
      // statusAt: 1=1000, 2=2000, 3=1000, 6=995; ties on statusAt go by id.
      expect((await store.due(["QUEUE", "PROGRESS"], 2000, 10)).map((o) => o.id)).toEqual([6, 1, 3, 2]);
      expect((await store.due(["QUEUE", "PROGRESS"], 1999, 2)).map((o) => o.id)).toEqual([6, 1]);
      expect((await store.due(["PROGRESS"], 2000, 10, "tr-a")).map((o) => o.id)).toEqual([2]);
      expect(await store.due(["DONE"], 2001, 10)).toEqual([]);
      expect(await store.unpaidTotal(1)).toBe(100 + 102 + 104);
      expect(await store.unpaidTotal(2)).toBe(101 + 105);
      expect(await store.unpaidTotal(3)).toBe(0);
    });

    test("a transition applies only from the statuses given; an explicit id moves the next one past it", async () => {
      const { store } = await start();
      const o = await store.transaction(() => store.insertOrder(newOrder()));
      expect(await store.transaction(() => store.transition(o.id, ["PROGRESS"], { status: "DONE" }))).toBeUndefined();
      expect(await store.transaction(() => store.transition(99, ["QUEUE"], { status: "PROGRESS" }))).toBeUndefined();
      const accepted = await store.transaction(() => store.transition(o.id, ["QUEUE", "REVISION"], { status: "PROGRESS", translator: "t", acceptedAt: 5 }));
      expect(accepted).toEqual({ ...o, status: "PROGRESS", translator: "t", acceptedAt: 5 });
      expect(await store.order(o.id)).toEqual(accepted!);
      expect((await store.transaction(() => store.insertOrder(newOrder({ id: 40 })))).id).toBe(40);
      expect((await store.transaction(() => store.insertOrder(newOrder()))).id).toBe(41);
    });

    test("comments keep their images in order; deleting an order keeps the images another order's comments use", async () => {
      const { store, count } = await start();
      const [a, b] = await store.transaction(async () => {
        const first = await store.insertOrder(newOrder());
        const second = await store.insertOrder(newOrder({ targetLanguage: "fr" }));
        const one = await store.insertAttachment(image("one"));
        const two = await store.insertAttachment(image("two"));
        const own = await store.insertAttachment(image("own"));
        await store.addComment(first.id, { role: "CUSTOMER", author: "customer", text: "see", attachmentIds: [two, one], now: 7 });
        await store.addComment(first.id, { role: "TRANSLATOR", author: "tr", text: "ok", attachmentIds: [], now: 8 });
        await store.addComment(second.id, { role: "CUSTOMER", author: "customer", text: "", attachmentIds: [one, two, own], now: 9 });
        return [first, second];
      });
      expect(await store.comments(a!.id)).toEqual([
        { id: 1, orderId: a!.id, role: "CUSTOMER", author: "customer", text: "see", createdAt: 7, attachments: [image("two"), image("one")] },
        { id: 2, orderId: a!.id, role: "TRANSLATOR", author: "tr", text: "ok", createdAt: 8, attachments: [] },
      ]);
      expect((await store.comments(b!.id))[0]!.attachments.map((i) => i.name)).toEqual(["one", "two", "own"]);
      expect(await store.comments(99)).toEqual([]);

      expect(await store.transaction(() => store.deleteOrder(a!.id, ["PROGRESS"]))).toBe(false);
      expect(await store.transaction(() => store.deleteOrder(99, ["QUEUE"]))).toBe(false);
      expect(await store.transaction(() => store.deleteOrder(a!.id, ["QUEUE"]))).toBe(true);
      expect(await store.order(a!.id)).toBeUndefined();
      expect(await store.comments(a!.id)).toEqual([]);
      expect(await count("translate_attachments")).toBe(3);
      expect((await store.comments(b!.id))[0]!.attachments.map((i) => i.name)).toEqual(["one", "two", "own"]);
      expect(await store.transaction(() => store.deleteOrder(b!.id, ["QUEUE"]))).toBe(true);
      expect([await count("translate_attachments"), await count("translate_comment_attachments"), await count("translate_comments")]).toEqual([0, 0, 0]);
    });

    test("clear deletes everything and ids start again from 1", async () => {
      const { store, count } = await start();
      await store.transaction(async () => {
        await store.seedAccount(3, 100, false, 1);
        await store.createAccount(5, false, "c".repeat(64), "admin:x", 2);
        const o = await store.insertOrder(newOrder({ accountId: 3 }));
        await store.move(3, { entry: "reserve", balance: -150, reserved: 150, actor: "customer", now: 3, orderId: o.id });
        await store.addComment(o.id, { role: "CUSTOMER", author: "c", text: "x", attachmentIds: [await store.insertAttachment(image("i"))], now: 3 });
      });
      await store.transaction(() => store.clear());
      expect(await store.accounts()).toEqual([]);
      expect(await store.accountOfKey("c".repeat(64))).toBeUndefined();
      for (const table of ["translate_orders", "translate_comments", "translate_attachments", "translate_comment_attachments", "translate_ledger"]) {
        expect(await count(table)).toBe(0);
      }
      const again = await store.transaction(async () => {
        await store.seedAccount(3, 100, false, 4);
        const o = await store.insertOrder(newOrder({ accountId: 3 }));
        const image1 = await store.insertAttachment(image("j"));
        await store.addComment(o.id, { role: "CUSTOMER", author: "c", text: "y", attachmentIds: [image1], now: 5 });
        return { order: o.id, image: image1, account: (await store.createAccount(1, false, "d".repeat(64), "admin:x", 5)).id };
      });
      expect(again).toEqual({ order: 1, image: 1, account: 4 });
      expect((await store.comments(1))[0]!.id).toBe(1);
      expect((await store.ledger(3))[0]!.id).toBe(1);
    });

    test("orders placed at once through two stores on one database never overdraw the account", async () => {
      const { store, another } = await start();
      const other = await another();
      await store.transaction(() => store.seedAccount(1, 1_000, false, 1));
      // Each places a 300 order if the account can pay for it, as the order service does.
      const place = (s: TranslateStore) =>
        s.transaction(async () => {
          const account = (await s.accountForUpdate(1))!;
          if (account.balance < 300) return false;
          const o = await s.insertOrder(newOrder({ price: 300 }));
          await s.move(1, { entry: "reserve", balance: -300, reserved: 300, actor: "customer", now: 2, orderId: o.id });
          return true;
        });
      const placed = await Promise.all(Array.from({ length: 8 }, (_, i) => place(i % 2 ? other : store)));
      expect(placed.filter(Boolean)).toHaveLength(3);
      expect(await store.account(1)).toMatchObject({ balance: 100, reserved: 900 });
      expect(await store.unpaidTotal(1)).toBe(900);
      const ledger = await other.ledger(1);
      expect(ledger.map((l) => l.balanceAfter)).toEqual([1_000, 700, 400, 100]);
    });
  });
}
