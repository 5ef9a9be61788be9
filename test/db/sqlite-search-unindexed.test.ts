/**
 * SQLite: a query with words finds a hook only once the text index holds it, by whichever path it
 * is answered (the text index's candidates, a tag's hooks read first, a count intersecting the two
 * or checking a tag's hooks whole, a status's hooks, the union of an OR's candidates): a count
 * equals its list while hooks wait for the index.
 */
import { expect, test } from "bun:test";
import { monotonicFactory } from "ulid";
import { createHookStore } from "../../src/db/sqlite/hook-store";
import { openDatabase } from "../../src/db/sqlite/open";
import { attachSearchIndex } from "../../src/db/sqlite/search-index-file";
import { createSearchStore } from "../../src/db/sqlite/search-store";
import { sqliteDialect } from "../../src/db/stores/dialect";
import { createTagStore } from "../../src/db/stores/tags";
import { sqliteTransactor } from "../../src/db/transactor";
import { decodePayload } from "../../src/hooks/payload";
import { searchDoc } from "../../src/search/document";
import { parseSearch } from "../../src/search/query";

test("hooks not yet indexed are found by words on no path: every count equals its list", async () => {
  const T0 = Date.UTC(2026, 5, 1);
  const db = openDatabase({ path: ":memory:", durability: "normal" });
  attachSearchIndex(db.$client, ":memory:", true);
  const hooks = createHookStore(db);
  const next = monotonicFactory();
  const made = Array.from({ length: 200 }, (_, i) => ({
    id: next(T0 + i * 7).toLowerCase(),
    channel: "c",
    method: "POST",
    query: "",
    headers: JSON.stringify({ "content-type": "application/json" }),
    body: new TextEncoder().encode(JSON.stringify({ text: i % 2 ? "zebra invoice" : "other" })),
    ip: "10.0.0.1",
    createdAt: T0 + i * 7,
    eventType: "",
  }));
  await sqliteTransactor(db.$client).transaction(() => hooks.insertHooks(made, () => []));
  // The oldest 150 indexed; the newest 50 (25 of them with the word) wait for the index.
  const search = createSearchStore(db);
  const docs = await Promise.all(
    made.slice(0, 150).map(async (n) => {
      const h = (await hooks.getHook(n.id))!;
      return searchDoc(h, await decodePayload(h.headers, h.body));
    }),
  );
  await search.index(docs);
  await createTagStore(sqliteDialect(db.$client)).addTags(
    made.map((h) => h.id),
    ["t"],
    T0,
  );
  const stores = [
    search,
    createSearchStore(db, { countChunk: 16, scanPerCheck: Number.POSITIVE_INFINITY }),
    createSearchStore(db, { countChunk: 16, scanPerCheck: 0 }),
  ];
  // With a status, a full first chunk of candidates sends a count along the status's hooks; an OR of
  // words asks the union of their candidates.
  const queries = [
    "zebra tag:t",
    "zebra",
    "zebra tag:t status:pending",
    "invoice tag:t -other",
    "zebra status:pending",
    "zebra OR zzzz",
    "(zebra OR yak) -other",
  ];
  for (const q of queries) {
    const listed = await search.search({ terms: parseSearch(q), limit: 1000 });
    const counted = await Promise.all(stores.map((s) => s.count({ terms: parseSearch(q) }, 10_000)));
    expect([q, listed.length, ...counted]).toEqual([q, 75, 75, 75, 75]);
  }
});
