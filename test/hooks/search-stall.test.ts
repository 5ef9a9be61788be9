import { expect, test } from "bun:test";
import { createChangeSink, type CaughtRow } from "../../src/hooks/changes";
import { systemClock } from "../../src/lib/clock";
import { silentLog } from "../../src/lib/log";
import type { SearchDoc } from "../../src/search/document";
import { createSearch } from "../../src/search";
import { parseSearch } from "../../src/search/query";
import type { SearchStore } from "../../src/search/store";

const row = (id: string, word: string): CaughtRow => ({
  id,
  channel: "c",
  method: "POST",
  query: "channel=c",
  headers: "{}",
  body: new TextEncoder().encode(JSON.stringify({ word })),
  ip: "127.0.0.1",
  createdAt: Date.now(),
  eventType: "",
});

/**
 * The index rests between batches while hooks are being caught, for 19 times as long as a batch
 * took. A batch measured across a stall of the thread (the first GitHub hook's schema compiled, a
 * collection) rested for tens of seconds, and every search in between read an index without the
 * hooks caught since: the dashboard's list showed nothing for a hook its sender had the 200 for.
 */
test("a hook caught while the index rests after a stalled batch is found by the next search", async () => {
  const docs: SearchDoc[] = [];
  const changes = createChangeSink();
  let stall = true;
  const store: SearchStore = {
    dialect: "sqlite",
    transaction: (fn) => fn(),
    async index(batch) {
      // The thread stalls for 400 ms while this batch is indexed, and a hook is caught right
      // after: catching goes on, so the index would rest 19 times 400 ms after this batch.
      if (stall) (stall = false), Bun.sleepSync(400), changes.emit({ kind: "caught", hooks: [row("01B", "second")] });
      docs.push(...batch);
    },
    async unindexed() {
      return { ids: [] };
    },
    async search(q) {
      return docs.filter((d) => q.terms.words.every((w) => d.text.includes(w))).map((d) => d.id);
    },
    async count(q) {
      return docs.filter((d) => q.terms.words.every((w) => d.text.includes(w))).length;
    },
    async sizeBytes() {
      return undefined;
    },
  } as SearchStore;
  const search = createSearch({ store, changes, read: async () => undefined, clock: systemClock, log: silentLog, gatherMs: 1 });
  changes.emit({ kind: "caught", hooks: [row("01A", "first")] });
  await search.flush();
  // Found: the search ends the rest and waits for it, instead of giving up after FLUSH_WAIT_MS.
  expect(await search.search({ terms: parseSearch("second"), limit: 10 })).toEqual(["01B"]);
  await search.close();
});
