/**
 * The translation store's races on PostgreSQL, which SQLite cannot produce (its transactions take
 * turns on one connection): two instances, each with its own pool on one database, change the same
 * account or order at once. Each test holds the first transaction open until the second is seen
 * waiting for a lock (pg_stat_activity), then lets the first commit.
 */
import type { SQL } from "bun";
import { afterAll, describe, expect, test } from "bun:test";
import { migratePostgres } from "../../src/db/pg/migrate";
import { openPostgres } from "../../src/db/pg/open";
import { pgDialect } from "../../src/db/stores/dialect";
import { createTranslateStore } from "../../src/db/stores/translate";
import { pgTransactor } from "../../src/db/pg/transactor";
import type { TranslateStore } from "../../src/translate/contract";
import { freshDatabase } from "../helpers/postgres";
import { newOrder } from "./new-order";

const pools: SQL[] = [];
afterAll(async () => {
  for (const p of pools) await p.close();
});

/** Two instances on a fresh database, and a pool to watch them from. */
async function instances(): Promise<{ a: TranslateStore; b: TranslateStore; watch: SQL }> {
  const url = await freshDatabase();
  const [one, two] = [await openPostgres(url), await openPostgres(url)];
  pools.push(one, two);
  await migratePostgres(one);
  return { a: createTranslateStore(pgDialect(pgTransactor(one))), b: createTranslateStore(pgDialect(pgTransactor(two))), watch: one };
}

/** Resolves once some session of this database waits for a lock (polled: there is no event to wait on). */
async function someoneWaits(watch: SQL, stop: { done: boolean }): Promise<"waiting"> {
  while (!stop.done) {
    const [r] = await watch.unsafe(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
    if (r.n > 0) return "waiting";
    await Bun.sleep(5);
  }
  return "waiting";
}

/**
 * Runs `first` in a transaction on a, keeps it open, runs `second` in a transaction on b, and
 * commits the first once the second waits for its lock. Resolves to both results; rejects if the
 * second finished without waiting (nothing locked what it touched).
 */
async function race<A, B>(watch: SQL, a: TranslateStore, first: () => Promise<A>, b: TranslateStore, second: () => Promise<B>): Promise<[A, B]> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let ran!: () => void;
  const firstRan = new Promise<void>((r) => (ran = r));
  const held = a.transaction(async () => {
    const value = await first();
    ran();
    await gate;
    return value;
  });
  await Promise.race([firstRan, held]);
  const blocked = b.transaction(second);
  const stop = { done: false };
  const seen = await Promise.race([someoneWaits(watch, stop), blocked.then(() => "finished" as const)]);
  stop.done = true;
  release();
  if (seen === "finished") throw new Error("the second transaction did not wait for the first one's lock");
  return [await held, await blocked];
}

describe("translate store races on postgres", () => {
  test("an order on each instance for one account: the second reads the balance the first left", async () => {
    const { a, b, watch } = await instances();
    await a.transaction(() => a.seedAccount(1, 1_000, false, 1));
    const place = (store: TranslateStore) => async () => {
      const account = (await store.accountForUpdate(1))!;
      if (account.balance < 700) return "declined";
      const o = await store.insertOrder(newOrder({ price: 700 }));
      await store.move(1, { entry: "reserve", balance: -700, reserved: 700, actor: "customer", now: 2, orderId: o.id });
      return "placed";
    };
    expect(await race(watch, a, place(a), b, place(b))).toEqual(["placed", "declined"]);
    expect(await b.account(1)).toMatchObject({ balance: 300, reserved: 700 });
    expect((await a.ledger(1)).map((l) => l.entry)).toEqual(["opening", "reserve"]);
  });

  test("completing one order on two instances at once spends its price once", async () => {
    const { a, b, watch } = await instances();
    await a.transaction(() => a.seedAccount(2, 500, false, 1));
    const o = await a.transaction(async () => {
      const placed = await a.insertOrder(newOrder({ accountId: 2, price: 200, status: "PROGRESS", translator: "t" }));
      await a.move(2, { entry: "reserve", balance: -200, reserved: 200, actor: "customer", now: 2, orderId: placed.id });
      return placed;
    });
    const complete = (store: TranslateStore) => async () => {
      const done = await store.transition(o.id, ["PROGRESS"], { status: "DONE", paid: true, targetText: "x", completedAt: 3, statusAt: 3 });
      if (done) await store.move(2, { entry: "spend", balance: 0, reserved: -200, actor: "t", now: 3, orderId: o.id });
      return done?.status;
    };
    expect(await race(watch, a, complete(a), b, complete(b))).toEqual(["DONE", undefined]);
    expect(await a.account(2)).toMatchObject({ balance: 300, reserved: 0 });
    expect((await a.ledger(2)).map((l) => l.entry)).toEqual(["opening", "reserve", "spend"]);
  });

  test("deleting an order while another instance accepts it: whichever commits first wins, the other changes nothing", async () => {
    const { a, b, watch } = await instances();
    const [one, two] = await a.transaction(async () => [await a.insertOrder(newOrder()), await a.insertOrder(newOrder())]);
    const remove = (store: TranslateStore, id: number) => () => store.deleteOrder(id, ["QUEUE"]);
    const accept = (store: TranslateStore, id: number) => async () =>
      (await store.transition(id, ["QUEUE"], { status: "PROGRESS", translator: "t", acceptedAt: 4, statusAt: 4 }))?.status;

    expect(await race(watch, a, remove(a, one!.id), b, accept(b, one!.id))).toEqual([true, undefined]);
    expect(await b.order(one!.id)).toBeUndefined();
    expect(await race(watch, a, accept(a, two!.id), b, remove(b, two!.id))).toEqual(["PROGRESS", false]);
    expect(await b.order(two!.id)).toMatchObject({ status: "PROGRESS", translator: "t" });
  });

  test("two orders sharing an image deleted at once on two instances leave no image behind", async () => {
    const { a, b, watch } = await instances();
    const [x, y] = await a.transaction(async () => {
      const image = await a.insertAttachment({ type: "image/png", name: "shared", weight: 1, size: "1x1", data: "d" });
      const orders = [await a.insertOrder(newOrder()), await a.insertOrder(newOrder())];
      for (const o of orders) await a.addComment(o.id, { role: "CUSTOMER", author: "c", text: "", attachmentIds: [image], now: 1 });
      return orders;
    });
    expect(
      await race(
        watch,
        a,
        () => a.deleteOrder(x!.id, ["QUEUE"]),
        b,
        () => b.deleteOrder(y!.id, ["QUEUE"]),
      ),
    ).toEqual([true, true]);
    const [r] = await watch.unsafe(`SELECT count(*)::int AS n FROM translate_attachments`);
    expect(r.n).toBe(0);
  });

  test("accounts created on both instances at once get distinct ids", async () => {
    const { a, b, watch } = await instances();
    const create = (store: TranslateStore, key: string) => async () => (await store.createAccount(10, false, key.repeat(64), "admin:x", 5)).id;
    const ids = await race(watch, a, create(a, "e"), b, create(b, "f"));
    expect(ids).toEqual([1, 2]);
    const more = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).transaction(create(i % 2 ? a : b, String(i)))));
    expect(new Set(more).size).toBe(6);
    expect(Math.min(...more)).toBe(3);
  });
});
