/**
 * Search by any substring, on SQLite and PostgreSQL: SQLite's index holds words (and a trigram index
 * of the words seen), so a needle across separators, a piece of a word, and needles inside words
 * longer than the index keeps whole (indexed as overlapping pieces) must all be found as a full
 * scan of the documents finds them. Needles are cut at random from the hooks' own bodies (found)
 * and changed by one character (mostly not found); prefix field terms cut values the same way.
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
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { createTagStore } from "../../../src/db/stores/tags";
import type { NewHook } from "../../../src/hooks/store";
import { closeBackends, contractBackends } from "./backends";

afterEach(closeBackends);

let seed = 11;
const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), (seed >>> 8) % k);
const pick = <T>(xs: readonly T[]) => xs[rnd(xs.length)]!;
const SEPARATORS = [" ", ".", "-", ":", "/", ", ", "=", "@"];
/** Words: common ones, `vox0`... (more words holding "vox" than a needle's lookup reads), non-ASCII, `_` inside. */
const COMMON = ["invoice", "paid", "order_id", "créé", "naïve", "refund", "stripe", "acme", "ab", "x"];
/** A word of 65 to 200 characters of few letters (its substrings recur in other long words). */
const long = () => Array.from({ length: 65 + rnd(136) }, () => pick(["a", "b", "0", "1", "é"])).join("");

function body(i: number): string {
  const parts: string[] = [];
  for (let j = 0, n = 4 + rnd(12); j < n; j++) {
    const kind = rnd(10);
    parts.push(kind < 5 ? pick(COMMON) : kind < 7 ? `vox${rnd(800)}` : kind < 8 ? long() : `w${i}_${j}`);
    parts.push(pick(SEPARATORS));
  }
  return parts.join("");
}

/** A needle of 3 to 80 characters of `text` (a phrase in the query: quotes doubled). */
function cut(text: string): string {
  const length = Math.min(text.length, 3 + rnd(rnd(2) ? 12 : 78));
  const from = rnd(text.length - length + 1);
  return text.slice(from, from + length);
}
const phrase = (s: string) => `"${s.replaceAll('"', '""')}"`;

for (const backend of contractBackends(
  (db) => (
    attachSearchIndex(db.$client, ":memory:", true),
    {
      hooks: createHookStore(db),
      search: createSearchStore(db),
      // A tag's hooks counted with words: intersected with the index's candidates, or each checked.
      intersected: createSearchStore(db, { countChunk: 16, scanPerCheck: Number.POSITIVE_INFINITY }),
      checked: createSearchStore(db, { countChunk: 16, scanPerCheck: 0 }),
      tags: createTagStore(sqliteDialect(db.$client)),
    }
  ),
  (t) => ({
    hooks: createPgHookStore(t),
    search: createPgSearchStore(t),
    intersected: createPgSearchStore(t),
    checked: createPgSearchStore(t),
    tags: createTagStore(pgDialect(t)),
  }),
)) {
  describe(`substring search on ${backend.name}`, () => {
    test("every substring of a hook, across words, inside long words, in prefix terms, finds what a full scan finds", async () => {
      seed = 11;
      const next = monotonicFactory();
      const notes: string[] = [];
      const made: NewHook[] = Array.from({ length: 600 }, (_, i) => {
        // A note whose JSON escapes keep it out of the text as it is: its words are indexed apart.
        const note = i % 5 === 0 ? `say "${pick(COMMON)}" ${body(i)}` : body(i);
        notes.push(note.toLowerCase());
        return {
          id: next().toLowerCase(),
          channel: "words",
          method: "POST",
          query: "",
          headers: JSON.stringify({ "content-type": "application/json" }),
          body: new TextEncoder().encode(JSON.stringify({ text: body(i), note: note.slice(0, 200) })),
          ip: "10.1.2.3",
          createdAt: Date.now(),
          eventType: "",
        };
      });
      const { store, transaction } = await backend.open();
      await transaction(() => store.hooks.insertHooks(made, () => []));
      const docs = await Promise.all(
        made.map(async (n) => {
          const h = (await store.hooks.getHook(n.id))!;
          return searchDoc(h, await decodePayload(h.headers, h.body));
        }),
      );
      for (let i = 0; i < docs.length; i += 64) await store.search.index(docs.slice(i, i + 64));
      // A tag on every third hook: a count of a needle and the tag is the scan's hooks that carry it.
      const tagged = new Set(made.filter((_, i) => i % 3 === 0).map((h) => h.id));
      await store.tags.addTags([...tagged], ["t"], Date.now());
      const queries = ["vox", "vox1", "vox12", "invoice.paid", "d.ref", "ice paid", "_id", "order_", "créé-", "aïve", '"e" '];
      for (let i = 0; i < 150; i++) {
        const doc = docs[rnd(docs.length)]!;
        const text = JSON.parse(new TextDecoder().decode(made[docs.indexOf(doc)]!.body)).text.toLowerCase() as string;
        const needle = cut(text);
        queries.push(phrase(needle));
        const at = rnd(needle.length);
        queries.push(phrase(needle.slice(0, at) + pick(["z", "1", ".", "é", " "]) + needle.slice(at + 1)));
      }
      for (let i = 0; i < 40; i++) {
        const note = notes[rnd(notes.length)]!.slice(0, 200);
        queries.push(`payload.note:${phrase(note.slice(0, 1 + rnd(Math.min(note.length, 60))))}*`);
      }
      for (const q of queries) {
        let terms: ReturnType<typeof parseSearch>;
        try {
          terms = parseSearch(q);
        } catch {
          continue; // a needle the grammar refuses (under 3 characters once cut)
        }
        const scan = docs
          .filter((d) => terms.words.every((w) => d.text.includes(w)) && terms.fields.every((f) => d.fields.includes(f)))
          .map((d) => d.id)
          .reverse();
        const got = await store.search.search({ terms, limit: 1000 });
        expect({ q, got }).toEqual({ q, got: scan });
        const withTag = parseSearch(`${q} tag:t`);
        const inTag = scan.filter((id) => tagged.has(id)).length;
        for (const [name, s] of Object.entries({ search: store.search, intersected: store.intersected, checked: store.checked }))
          expect({ q, name, count: await s.count({ terms: withTag }, 1000) }).toEqual({ q, name, count: inTag });
      }
    }, 120_000);

    test("a word whose indexing was rolled back is indexed again with the next hook holding it", async () => {
      const next = monotonicFactory();
      const made: NewHook[] = ["first", "second"].map((n) => ({
        id: next().toLowerCase(),
        channel: "words",
        method: "POST",
        query: "",
        headers: "{}",
        body: new TextEncoder().encode(`rollbackword7731 ${n}`),
        ip: "10.1.2.3",
        createdAt: Date.now(),
        eventType: "",
      }));
      const { store, transaction } = await backend.open();
      await transaction(() => store.hooks.insertHooks(made, () => []));
      const [first, second] = await Promise.all(made.map(async (n) => searchDoc((await store.hooks.getHook(n.id))!, null)));
      const undone = transaction(async () => {
        await store.search.index([first!]);
        throw new Error("rolled back");
      });
      expect(undone).rejects.toThrow("rolled back");
      await undone.catch(() => {});
      await store.search.index([second!]);
      expect(await store.search.search({ terms: parseSearch("backword77"), limit: 10 })).toEqual([second!.id]);
    });
  });
}
