/**
 * SQLite: a view of `has:attempts` is counted along the attempted hooks (each once, however many
 * attempts it has), and its count equals its list, with dates, a status, a word beside it.
 */
import { expect, test } from "bun:test";
import { monotonicFactory } from "ulid";
import { createHookStore } from "../../src/db/sqlite/hook-store";
import { openDatabase } from "../../src/db/sqlite/open";
import { attachSearchIndex } from "../../src/db/sqlite/search-index-file";
import { createSearchStore } from "../../src/db/sqlite/search-store";
import { sqliteTransactor } from "../../src/db/transactor";
import { decodePayload } from "../../src/hooks/payload";
import { searchDoc } from "../../src/search/document";
import { parseSearch } from "../../src/search/query";

test("has:attempts counts each attempted hook once, as its list finds them", async () => {
  const T0 = Date.UTC(2026, 5, 1);
  const db = openDatabase({ path: ":memory:", durability: "normal" });
  attachSearchIndex(db.$client, ":memory:", true);
  const hooks = createHookStore(db);
  const next = monotonicFactory();
  const made = Array.from({ length: 120 }, (_, i) => ({
    id: next(T0 + i * 1000).toLowerCase(),
    channel: i % 2 ? "a" : "b",
    method: "POST",
    query: "",
    headers: JSON.stringify({ "content-type": "application/json" }),
    body: new TextEncoder().encode(JSON.stringify({ text: i % 3 ? "refund" : "other" })),
    ip: "10.0.0.1",
    createdAt: T0 + i * 1000,
    eventType: "",
  }));
  await sqliteTransactor(db.$client).transaction(() => hooks.insertHooks(made, () => []));
  const search = createSearchStore(db);
  await search.index(
    await Promise.all(
      made.map(async (n) => {
        const h = (await hooks.getHook(n.id))!;
        return searchDoc(h, await decodePayload(h.headers, h.body));
      }),
    ),
  );
  // Every fifth hook attempted by two handlers, twice each.
  const attempt = db.$client.prepare("INSERT INTO attempts (hook_id, handler, attempt, round_start, outcome, due_at) VALUES (?, ?, ?, 1, 'failed', 0)");
  for (const [i, h] of made.entries()) if (i % 5 === 0) for (const handler of ["x", "y"]) for (const n of [1, 2]) attempt.run(h.id, handler, n);
  const cases: [string, number][] = [
    ["has:attempts", 24],
    [`has:attempts after:${new Date(T0 + 60_000).toISOString()}`, 12],
    ["has:attempts -refund", 8],
    ["has:attempts channel:b", 12],
    ["-has:attempts", 96],
  ];
  for (const [q, n] of cases) {
    const listed = await search.search({ terms: parseSearch(q), limit: 1000 });
    expect([q, listed.length, await search.count({ terms: parseSearch(q) }, 1000), await search.count({ terms: parseSearch(q) }, 5)]).toEqual([q, n, n, 6]);
  }
});
