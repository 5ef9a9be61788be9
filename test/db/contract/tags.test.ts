/** TagStore and ReadStore's contract (src/tags/store.ts) on SQLite and PostgreSQL, with racing adds and removes. */
import { afterEach, describe, expect, test } from "bun:test";
import { filteredByCaller } from "../../../src/db/caller-filter";
import { createPgHookStore } from "../../../src/db/pg/hook-store";
import { createHookStore } from "../../../src/db/sqlite/hook-store";
import type { Storage } from "../../../src/db/storage";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { createReadStore, createTagStore } from "../../../src/db/stores/tags";
import type { HookStore } from "../../../src/hooks/store";
import { asCaller } from "../../../src/lib/caller";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

const stores = (d: ReturnType<typeof sqliteDialect>, hooks: HookStore) => ({ tags: createTagStore(d), reads: createReadStore(d), hooks });
/** A store this test does not use: every method does nothing. */
const unused = () => new Proxy({}, { get: () => () => undefined });

async function insertHooks(query: (text: string) => Promise<unknown>, channel: string, ids: string[]) {
  for (const id of ids)
    await query(
      `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at) VALUES ('${id}', '${channel}', 'pending', 'POST', '', '{}', '', '127.0.0.1', 1)`,
    );
}

for (const backend of contractBackends(
  (db) => stores(sqliteDialect(db.$client), createHookStore(db)),
  (t) => stores(pgDialect(t), createPgHookStore(t)),
)) {
  describe(`tag and read stores on ${backend.name}`, () => {
    test("add puts tags on hooks that exist once; remove takes them off; tagsOf and counts read them", async () => {
      const { store, query } = await backend.open();
      await insertHooks(query, "shop", ["h1", "h2", "h3"]);
      expect(await store.tags.addTags(["h1", "h2", "missing"], ["billing", "big", "billing"], 1000)).toBe(4);
      expect(await store.tags.addTags(["h1"], ["billing"], 2000)).toBe(0);
      expect(await store.tags.tagsOf(["h1", "h2", "h3", "missing"])).toEqual(
        new Map([
          ["h1", ["big", "billing"]],
          ["h2", ["big", "billing"]],
        ]),
      );
      expect(await store.tags.counts()).toEqual([
        { tag: "big", count: 2 },
        { tag: "billing", count: 2 },
      ]);
      expect(await store.tags.removeTags(["h1", "h3"], ["big", "none"])).toBe(1);
      expect(await store.tags.idsWith("big")).toEqual(["h2"]);
      expect(await store.tags.idsWith("billing")).toEqual(["h1", "h2"]);
      await query("DELETE FROM hooks WHERE id = 'h2'");
      expect(await store.tags.counts()).toEqual([{ tag: "billing", count: 1 }]);
    });

    test("counts of some channels count their hooks only; a limited caller's are those of its channels, counted without reading tagged hooks", async () => {
      const { store, query } = await backend.open();
      await insertHooks(query, "stripe-live", ["s1", "s2"]);
      await insertHooks(query, "stripe-test", ["t1"]);
      await insertHooks(query, "orders", ["o1", "o2", "o3"]);
      for (const name of ["stripe-live", "stripe-test", "orders"]) await store.hooks.upsertChannel(name, [], 1);
      await store.tags.addTags(["s1", "s2", "o1", "o2", "o3"], ["billing"], 1);
      await store.tags.addTags(["s1", "o1"], ["big"], 1);
      await store.tags.addTags(["o2"], ["secret"], 1);
      await store.tags.addTags(["t1"], ["test"], 1);
      const stripe = [
        { tag: "big", count: 1 },
        { tag: "billing", count: 2 },
        { tag: "test", count: 1 },
      ];
      expect(await store.tags.counts(["stripe-live"])).toEqual(stripe.filter((c) => c.tag !== "test"));
      expect(await store.tags.counts(["stripe-live", "stripe-test"])).toEqual(stripe);
      expect(await store.tags.counts(["nowhere"])).toEqual([]);
      expect(await store.tags.counts([])).toEqual([]);
      expect(await store.tags.counts()).toEqual([
        { tag: "big", count: 2 },
        { tag: "billing", count: 5 },
        { tag: "secret", count: 1 },
        { tag: "test", count: 1 },
      ]);

      // Through the caller filter (db/caller-filter.ts), which may not read tagged hooks one by one.
      const refuse = (what: string) => () => {
        throw new Error(`${what}: a limited caller's counts read tagged hooks`);
      };
      const hooks = Object.assign(Object.create(store.hooks) as HookStore, { getHooks: refuse("getHooks"), listChannels: () => store.hooks.listChannels() });
      const tags = { ...store.tags, counts: (c?: readonly string[]) => store.tags.counts(c), idsWith: refuse("idsWith") };
      const others = { search: unused(), refusals: unused(), issues: unused(), bulkJobs: unused(), changes: unused(), reads: unused(), transfer: unused() };
      const filtered = filteredByCaller({ ...others, hooks, tags } as unknown as Storage);
      expect(await asCaller(["stripe-*"], () => filtered.tags.counts())).toEqual(stripe);
      expect(await asCaller(["stripe-*"], () => filtered.tags.counts(["orders", "stripe-test"]))).toEqual([{ tag: "test", count: 1 }]);
      expect(await asCaller(["nothing-*"], () => filtered.tags.counts())).toEqual([]);
      expect(await asCaller(undefined, () => filtered.tags.counts())).toHaveLength(4);
    });

    test("lists longer than a statement's chunk are tagged whole", async () => {
      const { store, query } = await backend.open();
      const ids = Array.from({ length: 1500 }, (_, i) => `h${String(i).padStart(5, "0")}`);
      await query(
        `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at) VALUES ${ids.map((id) => `('${id}', 'shop', 'pending', 'POST', '', '{}', '', '127.0.0.1', 1)`).join(", ")}`,
      );
      expect(await store.tags.addTags(ids, ["x"], 1)).toBe(1500);
      expect((await store.tags.tagsOf(ids)).size).toBe(1500);
      expect(await store.tags.removeTags(ids, ["x"])).toBe(1500);
    });

    test("racing adds and removes of the same tags on two instances: no error, each tag on a hook at most once", async () => {
      const { store, another, query } = await backend.open();
      const other = await another();
      await insertHooks(query, "shop", ["h1", "h2"]);
      const work = Array.from({ length: 20 }, (_, i) => {
        const s = i % 2 ? store : other;
        return i % 3 === 2 ? s.tags.removeTags(["h1", "h2"], ["a"]) : s.tags.addTags(["h1", "h2"], ["a", "b"], i);
      });
      const { errors } = await race(work as Promise<number>[]);
      expect(errors).toEqual([]);
      const rows = await query("SELECT hook_id, tag FROM hook_tags ORDER BY hook_id, tag");
      expect(rows.filter((r) => r.tag === "b")).toHaveLength(2);
      expect(new Set(rows.map((r) => `${r.hook_id}/${r.tag}`)).size).toBe(rows.length);
      // Racing adds of one new tag: exactly one of them counts it as new.
      const added = await race(Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).tags.addTags(["h1"], ["c"], i)));
      expect(added.errors).toEqual([]);
      expect(added.values.reduce((a, b) => a + b, 0)).toBe(1);
    });

    test("a hook is unread for a user until marked read; per user; read counts by channel", async () => {
      const { store, query } = await backend.open();
      await insertHooks(query, "shop", ["h1", "h2"]);
      await insertHooks(query, "gh", ["h3"]);
      expect(await store.reads.readByChannel("ann@example.com")).toEqual(new Map());
      expect(await store.reads.markRead("ann@example.com", ["h1", "h3", "missing"], 5)).toBe(2);
      expect(await store.reads.markRead("ann@example.com", ["h1"], 6)).toBe(0);
      expect(await store.reads.readByChannel("ann@example.com")).toEqual(
        new Map([
          ["gh", 1],
          ["shop", 1],
        ]),
      );
      expect(await store.reads.readOf("ann@example.com", ["h1", "h2", "h3"])).toEqual(new Set(["h1", "h3"]));
      expect(await store.reads.readOf("bob@example.com", ["h1", "h2", "h3"])).toEqual(new Set());
      expect(await store.reads.readByChannel("bob@example.com")).toEqual(new Map());
      expect(await store.reads.markUnread("ann@example.com", ["h1", "h2"])).toBe(1);
      expect(await store.reads.readByChannel("ann@example.com")).toEqual(new Map([["gh", 1]]));
    });

    test("racing marks of the same hooks read on two instances: no error, read once", async () => {
      const { store, another, query } = await backend.open();
      const other = await another();
      await insertHooks(query, "shop", ["h1", "h2"]);
      const { values, errors } = await race(Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).reads.markRead("ann@example.com", ["h1", "h2"], i)));
      expect(errors).toEqual([]);
      expect(values.reduce((a, b) => a + b, 0)).toBe(2);
    });
  });
}
