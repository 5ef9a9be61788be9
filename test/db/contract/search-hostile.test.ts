/**
 * Search on hostile hooks, on SQLite and PostgreSQL: JSON escapes, unicode that changes length when
 * lowered, NUL bytes, a 1 MiB body whose words lie past the index's look-up window, deep nesting and
 * keys holding dots. Each hook is searched for by its own words and field values (exact and prefix):
 * every search finds what a full scan of the documents finds, and the hook itself.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { monotonicFactory } from "ulid";
import { createPgHookStore } from "../../../src/db/pg/hook-store";
import { createPgSearchStore } from "../../../src/db/pg/search-store";
import { decodePayload } from "../../../src/hooks/payload";
import { searchDoc } from "../../../src/search/document";
import { attachSearchIndex } from "../../../src/db/sqlite/search-index-file";
import { parseSearch } from "../../../src/search/query";
import { createSearchStore } from "../../../src/db/sqlite/search-store";
import { createHookStore } from "../../../src/db/sqlite/hook-store";
import type { NewHook } from "../../../src/hooks/store";
import { closeBackends, contractBackends } from "./backends";

afterEach(closeBackends);

const next = monotonicFactory();
const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
let deep: unknown = { leaf: "bottomvalue" };
for (let i = 0; i < 40; i++) deep = { n: deep };
const big = `${"filler ".repeat(140_000)}farawayword {"x":1}`;

/** Bodies, each with the searches that must find it. */
const CASES: { body: Uint8Array; type?: string; headers?: Record<string, string>; queries: string[] }[] = [
  {
    body: json({ note: 'quote " and \\ back \n newline', u: "\u00e9t\u00e9" }),
    queries: ['payload.note:"quote "" and \\ back   newline"', 'payload.note:"quote ""*"', "payload.u:été", "payload.u:ét*"],
  },
  { body: new TextEncoder().encode('{"esc":"\\u0041BC\\u00e9zz"}'), queries: ["payload.esc:abcézz", "payload.esc:abcé*", "\\u0041bc"] },
  {
    body: json({ big: "İİİİstanbul", emoji: "🦊🦊fox" }),
    queries: ["payload.big:i̇i̇i̇i̇stanbul", "payload.big:i̇i̇*", "payload.emoji:🦊🦊fox", "payload.emoji:🦊🦊*", "i̇stanbul"],
  },
  { body: json({ nul: "a\u0000bcd" }), queries: ['payload.nul:"a bcd"', 'payload.nul:"a b*"'] },
  { body: new Uint8Array([0x6e, 0x75, 0x6c, 0, 0x62, 0x79, 0x74, 0x65, 0x73]), queries: ["bytes", "nul byt"] },
  {
    body: json({ a: { b: { c: "dotted" } }, "x.y": "skipped", deep }),
    queries: ["payload.a.b.c:dotted", "payload.a.b.c:dot*", `payload.deep.${"n.".repeat(40)}leaf:bottomvalue`],
  },
  { body: new TextEncoder().encode(big), queries: ["farawayword", "filler"] },
  {
    body: json({ pad: "z".repeat(70_000), late: "lateval", num: 12.5, t: true }),
    queries: ["payload.late:lateval", "payload.late:late*", "payload.num:12.5", "payload.t:true", "payload.num:12*"],
  },
  {
    body: json({ type: "Invoice.Paid" }),
    type: "Invoice.Paid",
    queries: ["type:invoice.paid", "type:invoice*", "method:post", "ip:10.9.8.7", "header.x-thing:ünï", "header.x-thing:ü*"],
    headers: { "x-thing": "ÜNÏ" },
  },
];

for (const backend of contractBackends(
  (db) => (attachSearchIndex(db.$client, ":memory:", true), { hooks: createHookStore(db), search: createSearchStore(db) }),
  (t) => ({ hooks: createPgHookStore(t), search: createPgSearchStore(t) }),
)) {
  describe(`hostile search on ${backend.name}`, () => {
    test("each hostile hook is found by its own words and field values, and a full scan agrees", async () => {
      const { store, transaction } = await backend.open();
      const made: NewHook[] = CASES.map((c) => ({
        id: next().toLowerCase(),
        channel: "hostile",
        method: "POST",
        query: "",
        headers: JSON.stringify({ "content-type": "application/json", ...c.headers }),
        body: c.body,
        ip: "10.9.8.7",
        createdAt: Date.now(),
        eventType: c.type ?? "",
      }));
      await transaction(() => store.hooks.insertHooks(made, () => []));
      const docs = await Promise.all(
        made.map(async (n) => {
          const h = (await store.hooks.getHook(n.id))!;
          return searchDoc(h, await decodePayload(h.headers, h.body));
        }),
      );
      await store.search.index(docs);
      for (const [i, c] of CASES.entries()) {
        for (const q of c.queries) {
          const terms = parseSearch(q);
          const scan = docs
            .filter((d) => terms.words.every((w) => d.text.includes(w)) && terms.fields.every((f) => d.fields.includes(f)))
            .map((d) => d.id)
            .reverse();
          const got = await store.search.search({ terms, limit: 100 });
          expect({ q, got }).toEqual({ q, got: scan });
          expect({ q, found: got.includes(made[i]!.id) }).toEqual({ q, found: true });
        }
      }
    }, 60_000);
  });
}
