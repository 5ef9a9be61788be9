/**
 * SQLite's search index in its own file, written by the index thread (src/search): caught
 * hooks are found once their batch is reported; a lost or damaged index file costs only indexing
 * again; entries of deleted hooks are purged; the file is readable by its owner only.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monotonicFactory } from "ulid";
import { openDatabase } from "../../src/db/sqlite/open";
import { createSqliteStorage } from "../../src/db/sqlite/storage";
import { parseSearch } from "../../src/search/query";
import { createThreadedSearch } from "../../src/search/threaded";
import { createSearch } from "../../src/search/index";
import { systemClock } from "../../src/lib/clock";
import type { NewHook } from "../../src/hooks/store";
import { type Log, silentLog } from "../../src/lib/log";

const THREAD = new URL("../../src/db/sqlite/search-thread.ts", import.meta.url).href;
const CHECKPOINTS = new URL("../../src/db/sqlite/checkpoint-thread.ts", import.meta.url).href;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A data file's path in a fresh folder, removed after the test. */
function dataPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-search-file-"));
  dirs.push(dir);
  return join(dir, "mailroom.db");
}

function open(path: string, maxInFlightBytes?: number, thread = THREAD, log: Log = silentLog) {
  const db = openDatabase({ path, durability: "normal" });
  const storage = createSqliteStorage(db, { path, durability: "normal", searchThreadUrl: thread });
  const search = createThreadedSearch({ store: storage.search, thread: storage.searchThread!, changes: storage.changes, log, maxInFlightBytes });
  return { storage, search, close: async () => (await search.close(), await storage.close()) };
}

const next = monotonicFactory();
function hooks(n: number): NewHook[] {
  return Array.from({ length: n }, (_, i) => {
    const createdAt = Date.now();
    const body = Buffer.from(JSON.stringify({ order: i, note: `marker${i} "quoted"` }));
    return {
      id: next(createdAt).toLowerCase(),
      channel: "shop",
      method: "POST",
      query: "",
      headers: '{"content-type":"application/json"}',
      body,
      ip: "127.0.0.1",
      createdAt,
      eventType: "",
    };
  });
}

const ids = async (s: ReturnType<typeof open>, q: string) => (await s.search.search({ terms: parseSearch(q), limit: 100 })).length;
/**
 * Waits until the index thread has taken everything handed to it: what a search waits for, at most
 * FLUSH_WAIT_MS (then it answers from what is indexed), which a busy machine can outlast.
 */
const indexed = (s: ReturnType<typeof open>) => s.search.flush();

test("hooks reported caught are found through the index thread; a lost, then a damaged index file is made again and filled by the sweep", async () => {
  const path = dataPath();
  let s = open(path);
  const made = hooks(150);
  await s.storage.hooks.insertHooks(made, () => []);
  for (let i = 0; i < made.length; i += 64) s.storage.changes.emit({ kind: "caught", hooks: made.slice(i, i + 64) });
  await indexed(s);
  expect(await ids(s, "marker149")).toBe(1);
  expect(await ids(s, "payload.order:7")).toBe(1);
  // A decoded value the raw body does not hold as such (a JSON escape) is found by its prefix too.
  expect(await ids(s, 'payload.note:"marker3 ""quo*"')).toBe(1);
  expect(await ids(s, 'payload.note:"marker3 ""quoted"""')).toBe(1);
  expect(statSync(`${path}-search`).mode & 0o777).toBe(0o600);
  // Its size on disk counts the write-ahead log, which holds what was not copied into the file yet.
  const wal = statSync(`${path}-search-wal`).size;
  expect(wal).toBeGreaterThan(0);
  expect(await s.search.indexSize()).toBeGreaterThan(wal);
  await s.close();

  for (const damage of [() => rmSync(`${path}-search`), () => writeFileSync(`${path}-search`, "not a database at all".repeat(500))]) {
    for (const suffix of ["-wal", "-shm"]) rmSync(`${path}-search${suffix}`, { force: true });
    damage();
    s = open(path);
    expect(await ids(s, "marker42")).toBe(0);
    await s.search.sweep();
    expect(await ids(s, "marker42")).toBe(1);
    expect(await ids(s, "payload.order:149")).toBe(1);
    await s.close();
  }
  expect(existsSync(`${path}-search`)).toBe(true);
}, 120_000);

test("the entries of deleted hooks are purged from the index file; their hooks are not found meanwhile", async () => {
  const path = dataPath();
  const s = open(path);
  const made = hooks(20);
  await s.storage.hooks.insertHooks(made, () => []);
  await s.search.sweep();
  const gone = made.filter((_, i) => i % 4 === 0);
  await s.storage.hooks.deleteHooks(gone.map((h) => ({ id: h.id, channel: h.channel, status: "pending" })));
  expect(await ids(s, "marker")).toBe(15);
  const reader = openDatabase({ path, durability: "normal" }).$client;
  reader.run("ATTACH DATABASE ? AS search", [`${path}-search`]);
  const count = () => (reader.query("SELECT count(*) AS n FROM search.search_rows").get() as { n: number }).n;
  expect(count()).toBe(20);
  // The index thread purges at start and every 10 minutes; here its connection's store does it at once.
  const writer = openDatabase({ path, durability: "normal" });
  const { attachSearchIndex } = await import("../../src/db/sqlite/search-index-file");
  const { createSearchStore } = await import("../../src/db/sqlite/search-store");
  attachSearchIndex(writer.$client, `${path}-search`);
  expect(await createSearchStore(writer.$client, { ownWrites: true }).purge!(undefined, 1000)).toBeDefined();
  expect(count()).toBe(15);
  expect(await ids(s, "marker")).toBe(15);
  writer.$client.close();
  reader.close();
  await s.close();
}, 120_000);

test("ip: reads the index's addresses of its block and finds their hooks; a block of more addresses than it asks for reads the hooks; an index of the format before is made again", async () => {
  const path = dataPath();
  let s = open(path);
  // 600 addresses in 10.1.0.0/16 (more than an ip: term asks the index for; a /26 is not), one IPv6 with a zone
  // longer than a field's value may be, one IPv4-mapped form, and an ip that is no address.
  const made = hooks(604);
  made.forEach((h, i) => (h.ip = `10.1.${i >> 8}.${i & 255}`));
  made[600]!.ip = `fe80::2%${"z".repeat(300)}`;
  made[601]!.ip = "::ffff:10.1.9.9";
  made[602]!.ip = "not an address";
  made[603]!.ip = "2001:db8::9";
  await s.storage.hooks.insertHooks(made, () => []);
  await s.search.sweep();
  const count = (q: string) => s.search.count({ terms: parseSearch(q) }, 10_000);
  expect(await count("ip:10.1.0.0/16")).toBe(601);
  expect(await count("ip:10.1.1.0/24")).toBe(256);
  expect(await count("ip:10.1.1.0/26")).toBe(64);
  expect(await count("ip:10.1.1.0/24 -ip:10.1.1.7")).toBe(255);
  expect(await count("ip:10.1.9.9")).toBe(1);
  expect(await count("ip:::ffff:10.1.2.3")).toBe(1);
  expect(await count("ip:fe80::/10")).toBe(1);
  expect(await count("ip:10.2.0.0/16")).toBe(0);
  expect(await count("ip:10.1.2.0/24 OR ip:2001:db8::/32")).toBe(89);
  expect(await count("ip:10.1.2.0/26 OR ip:2001:db8::/32")).toBe(65);
  expect(await ids(s, "ip:10.1.1.0/24")).toBe(100);
  expect(await ids(s, "ip:10.1.1.64/26")).toBe(64);
  expect(await ids(s, "marker602 ip:::/0")).toBe(0);
  // The addresses' table is what ip: asks: the block's addresses, each once.
  const reader = openDatabase({ path, durability: "normal" }).$client;
  reader.run("ATTACH DATABASE ? AS search", [`${path}-search`]);
  expect((reader.query("SELECT count(*) AS n FROM search.search_ips").get() as { n: number }).n).toBe(603);
  // An index file of format 3 (before the addresses) is made again when Mailroom opens, and filled by the sweep.
  await s.close();
  reader.run("DROP TABLE search.search_ips");
  reader.run("PRAGMA search.user_version = 3");
  reader.close();
  s = open(path);
  await s.search.sweep();
  const again = openDatabase({ path, durability: "normal" }).$client;
  again.run("ATTACH DATABASE ? AS search", [`${path}-search`]);
  expect(again.query("PRAGMA search.user_version").get()).toEqual({ user_version: 4 });
  again.close();
  expect(await s.search.count({ terms: parseSearch("ip:10.1.1.0/26") }, 10_000)).toBe(64);
  await s.close();
}, 120_000);

test("every field of a caught hook reaches the index thread as caught: text beyond ASCII, a body within a larger buffer, an empty body", async () => {
  const path = dataPath();
  const s = open(path);
  const [a, b, c] = hooks(3) as [NewHook, NewHook, NewHook];
  // A body that is a view of a larger buffer: only the view is the hook's body.
  const shared = Buffer.from(`{"w":"outsidebefore"}{"w":"insideview"}{"w":"outsideafter"}`);
  Object.assign(a, { channel: "bücher", method: "PUT", query: "q=été", ip: "2001:db8::7", eventType: "commande.créée", headers: '{"x-note":"naïve 🚚"}' });
  Object.assign(b, { body: shared.subarray(21, 40), eventType: "order.paid" });
  Object.assign(c, { body: new Uint8Array(0), eventType: "ping.empty", headers: '{"x-empty":"yes"}' });
  await s.storage.hooks.insertHooks([a, b, c], () => []);
  s.storage.changes.emit({ kind: "caught", hooks: [a, b, c] });
  await indexed(s);
  const only = (q: string) => s.search.search({ terms: parseSearch(q), limit: 100 });
  expect(await only("channel:bücher")).toEqual([a.id]);
  expect(await only("method:PUT")).toEqual([a.id]);
  expect(await only("ip:2001:db8::7")).toEqual([a.id]);
  expect(await only("type:commande.créée")).toEqual([a.id]);
  expect(await only('header.x-note:"naïve 🚚"')).toEqual([a.id]);
  expect(await only("insideview")).toEqual([b.id]);
  expect(await only("outsidebefore")).toEqual([]);
  expect(await only("outsideafter")).toEqual([]);
  expect(await only("type:order.paid")).toEqual([b.id]);
  expect(await only("type:ping.empty")).toEqual([c.id]);
  expect(await only("header.x-empty:yes")).toEqual([c.id]);
  await s.close();
}, 120_000);

test("hooks handed to the index thread as ids only (past the bytes it has not taken yet) are read back by a sweep: every one is found", async () => {
  const path = dataPath();
  // One byte: no batch fits, so every one is handed over as its ids.
  const s = open(path, 1);
  const made = hooks(200);
  await s.storage.hooks.insertHooks(made, () => []);
  for (let i = 0; i < made.length; i += 64) s.storage.changes.emit({ kind: "caught", hooks: made.slice(i, i + 64) });
  await indexed(s);
  for (const i of [0, 63, 64, 199]) expect(await ids(s, `marker${i}`)).toBe(1);
  expect(await ids(s, "payload.order:150")).toBe(1);
  await s.close();
}, 120_000);

test("an index thread that fails is started again and indexes what it missed; searches answer meanwhile", async () => {
  const path = dataPath();
  const errors: string[] = [];
  const log: Log = { info() {}, warn() {}, error: (message) => void errors.push(message) };
  const failing = new URL("./fixtures/failing-search-thread.ts", import.meta.url).href;
  const s = open(path, undefined, failing, log);
  const made = hooks(100);
  await s.storage.hooks.insertHooks(made, () => []);
  // The first batch handed over brings the thread down, with the hooks it held.
  s.storage.changes.emit({ kind: "caught", hooks: made.slice(0, 50) });
  const deadline = Date.now() + 20_000;
  while (errors.length === 0 && Date.now() < deadline) await Bun.sleep(20);
  expect(errors).toEqual(["the search index thread stopped; starting it again in 1s (searches find the hooks indexed until now)"]);
  // Nothing was indexed (the start's sweep, asked now, waits for the thread to be started again).
  s.search.start();
  expect(await ids(s, "marker")).toBe(0);
  // Started again, it indexes what it lost (its start sweeps every hook not indexed yet) ...
  // (oldest first, 64 per transaction: the newest lost hook is found once every one is)
  while ((await ids(s, "marker99")) === 0 && Date.now() < deadline) await Bun.sleep(50);
  expect(await ids(s, "marker")).toBe(100);
  // ... and takes caught batches as before.
  const later = hooks(3).map((h) => ({ ...h, body: Buffer.from(JSON.stringify({ note: "afterwards" })) }));
  await s.storage.hooks.insertHooks(later, () => []);
  s.storage.changes.emit({ kind: "caught", hooks: later });
  await indexed(s);
  expect(await ids(s, "afterwards")).toBe(3);
  await s.close();
}, 120_000);

test("an index file that cannot be written (here a folder in its place) does not stop the data file from opening: the index is kept in a temporary file", async () => {
  const path = dataPath();
  mkdirSync(`${path}-search`);
  const errors: string[] = [];
  const log: Log = { info() {}, warn() {}, error: (message) => void errors.push(message) };
  const db = openDatabase({ path, durability: "normal" });
  const storage = createSqliteStorage(db, { path, durability: "normal", searchThreadUrl: THREAD, checkpoints: { log, threadUrl: CHECKPOINTS } });
  const kept = storage.searchThread!.indexPath;
  expect(kept.startsWith(tmpdir())).toBe(true);
  expect(errors).toEqual([`the search index file ${path}-search cannot be used; the search index is kept in ${kept} until a restart`]);
  expect(statSync(kept).mode & 0o777).toBe(0o600);
  const search = createThreadedSearch({ store: storage.search, thread: storage.searchThread!, changes: storage.changes, log });
  const made = hooks(10);
  await storage.hooks.insertHooks(made, () => []);
  storage.changes.emit({ kind: "caught", hooks: made });
  await search.flush();
  expect((await search.search({ terms: parseSearch("marker7"), limit: 10 })).length).toBe(1);
  await search.close();
  await storage.close();
  expect(existsSync(kept)).toBe(false);
}, 120_000);

test("hooks left out while the index thread is starved cost one message, not one per batch, and are all found once it runs", async () => {
  const path = dataPath();
  const warnings: string[] = [];
  const log: Log = { info() {}, warn: (message) => void warnings.push(message), error() {} };
  const s = open(path, undefined, new URL("./fixtures/blocked-search-thread.ts", import.meta.url).href, log);
  const made = hooks(200);
  await s.storage.hooks.insertHooks(made, () => []);
  // 100 batches handed over as their ids while the thread takes nothing: messages would pile up.
  for (let i = 0; i < made.length; i += 2) s.search.leftOut(made.slice(i, i + 2).map((h) => h.id));
  writeFileSync(`${path}.go`, "");
  await s.search.flush();
  const count = Number(warnings.find((w) => w.startsWith("left-out messages: "))?.slice(19));
  expect(count).toBeGreaterThanOrEqual(1);
  expect(count).toBeLessThanOrEqual(2);
  for (const i of [0, 101, 199]) expect(await ids(s, `marker${i}`)).toBe(1);
  expect(await ids(s, "marker")).toBe(100);
  await s.close();
}, 120_000);

test("hooks left out while the start-up sweep runs are found by the next search: what it waits for includes the sweep that takes them", async () => {
  const path = dataPath();
  const s = open(path, undefined, new URL("./fixtures/blocked-search-thread.ts", import.meta.url).href);
  const older = hooks(1000);
  await s.storage.hooks.insertHooks(older, () => []);
  s.search.start();
  const made = hooks(10).map((h, i) => ({ ...h, body: Buffer.from(JSON.stringify({ note: `latecomer${i}` })) }));
  await s.storage.hooks.insertHooks(made, () => []);
  s.search.leftOut(made.map((h) => h.id));
  writeFileSync(`${path}.go`, "");
  await indexed(s);
  expect(await ids(s, "latecomer")).toBe(10);
  await s.close();
}, 120_000);

test("other work on the serving thread counted by busy() (a bulk job's batches) makes the index thread stand aside as a flood of caught hooks does; a search wakes it", async () => {
  const s = open(dataPath());
  s.search.start();
  // What the index holds, read without waiting for the thread (a search would wake it).
  const held = async (q: string) => (await s.storage.search.search({ terms: parseSearch(q), limit: 100 })).length;
  /**
   * Catches one hook holding `word` every 20 ms for `ms`: 50 hooks a second, far below the flood
   * rate, so that the thread measures the rate at each of them (it does at each batch it takes).
   */
  const trickle = async (word: string, ms: number) => {
    let n = 0;
    for (const end = Date.now() + ms; Date.now() < end; n++) {
      const one = hooks(1).map((h) => ({ ...h, body: Buffer.from(JSON.stringify({ note: word })) }));
      await s.storage.hooks.insertHooks(one, () => []);
      s.storage.changes.emit({ kind: "caught", hooks: one });
      await Bun.sleep(20);
    }
    return n;
  };
  // Alone, a trickle is indexed as it comes.
  const quiet = await trickle("quietly", 600);
  await indexed(s);
  expect(await held("quietly")).toBe(quiet);

  // With a job's worth of work counted every 10 ms (far above the flood rate in any window the
  // watch measures), the thread stands aside after the first few: most of the trickle waits.
  const job = setInterval(() => s.search.busy(1_000_000), 10);
  let during: number;
  try {
    during = await trickle("meanwhile", 1000);
    expect(during).toBeGreaterThan(20);
    expect(await held("meanwhile")).toBeLessThan(during / 2);
  } finally {
    clearInterval(job);
  }
  // A search wakes it: everything is found.
  await indexed(s);
  expect(await held("meanwhile")).toBe(during);
  await s.close();
}, 60_000);

test("words and addresses no kept hook holds any longer are pruned from the vocabulary once enough hooks were purged: searches answer the same, and a pruned word caught again is found", async () => {
  const path = dataPath();
  const db = openDatabase({ path, durability: "normal" });
  // Without the thread the index is attached to the data file's connection; this store indexes, purges and prunes.
  const storage = createSqliteStorage(db, { path, durability: "normal" });
  const { createSearchStore } = await import("../../src/db/sqlite/search-store");
  const store = createSearchStore(db.$client, { pruneAfter: 10 });
  // Batches of 2: the prune reads 4 words a transaction, so a pass goes on from its cursor many times.
  const search = createSearch({ store, read: (id) => storage.hooks.getHook(id), clock: systemClock, log: silentLog, batch: 2 });
  // A long word of emoji is indexed as pieces cut by UTF-16 units: some end or start with half a
  // character, which SQLite stores as U+FFFD.
  const emoji = `a${"\u{1F600}".repeat(40)}`;
  const made = hooks(41).map((h, i) => ({ ...h, ip: `10.9.0.${i}`, body: Buffer.from(JSON.stringify({ note: i === 40 ? emoji : `solo${i}zq shared` })) }));
  await storage.hooks.insertHooks(made, () => []);
  await search.sweep();
  const sql = db.$client;
  const n = (text: string) => (sql.query(text).get() as { n: number }).n;
  const solos = () => n("SELECT count(*) AS n FROM search.search_words WHERE word LIKE 'solo%'");
  // The trigrams' table holds a row per word of the vocabulary.
  const grams = () => n("SELECT count(*) AS n FROM search.search_word_grams_docsize");
  const words = () => n("SELECT count(*) AS n FROM search.search_words");
  const count = (q: string) => store.count({ terms: parseSearch(q) }, 1000);
  expect(solos()).toBe(40);
  expect(n("SELECT count(*) AS n FROM search.search_ips")).toBe(41);
  expect(grams()).toBe(words());
  expect(await count(`"${emoji.slice(0, 7)}"`)).toBe(1);
  const wordsBefore = words();

  // 30 hooks and the emoji's deleted: their entries stay in the index until the purge, and their words with them.
  const gone = [...made.slice(0, 30), made[40]!];
  await storage.hooks.deleteHooks(gone.map((h) => ({ id: h.id, channel: h.channel, status: "pending" as const })));
  expect(await store.prune!(undefined, 1000)).toBe("i");
  expect(solos()).toBe(40);
  // The purge (at start, then every 10 minutes) removes their entries, and then, 31 being enough, their words.
  await search.purge();
  expect(solos()).toBe(10);
  expect(n("SELECT count(*) AS n FROM search.search_words WHERE word IN ('solo0zq', 'solo29zq')")).toBe(0);
  expect(n("SELECT count(*) AS n FROM search.search_words WHERE word IN ('solo30zq', 'solo39zq', 'shared')")).toBe(3);
  expect(n("SELECT count(*) AS n FROM search.search_words WHERE word LIKE '%\u{FFFD}%' OR word LIKE 'a\u{1F600}%'")).toBe(0);
  expect(words()).toBeLessThan(wordsBefore - 30);
  expect(grams()).toBe(words());
  sql.run("INSERT INTO search.search_word_grams (search_word_grams) VALUES ('integrity-check')");
  expect(n("SELECT count(*) AS n FROM search.search_ips")).toBe(10);
  // The count of hooks purged since the pass is kept in the index file: none now.
  expect(n("SELECT n FROM search.search_meta WHERE name = 'purged'")).toBe(0);
  // What searches answer is what the kept hooks hold (the kept words' trigrams are there).
  expect(await count("olo3")).toBe(10);
  expect(await count("solo3")).toBe(10);
  expect(await count("shared")).toBe(10);
  expect(await count("ip:10.9.0.0/24")).toBe(10);
  expect(await store.pruneDue!()).toBe(false);

  // Words and addresses pruned come back with a hook that holds them, and are found again, by the
  // store that indexed them before (its cache of the words it wrote) and by another.
  const again = [made[5]!, made[40]!].map((h) => ({ ...hooks(1)[0]!, ip: h.ip, body: h.body }));
  await storage.hooks.insertHooks(again, () => []);
  await search.sweep();
  for (const s of [store, createSearchStore(db.$client)]) {
    const found = (q: string) => s.count({ terms: parseSearch(q) }, 1000);
    expect(await found("olo5z")).toBe(1);
    expect(await found(`"${emoji.slice(0, 7)}"`)).toBe(1);
    expect(await found(`${"\u{1F600}".repeat(3)}`)).toBe(1);
    expect(await found("ip:10.9.0.5")).toBe(1);
    expect(await found("ip:10.9.0.0/28")).toBe(1);
  }
  await search.close();
  await storage.close();
}, 120_000);

test("the index thread prunes after its purge, and the count of hooks purged since is kept across a restart: below the threshold nothing is pruned", async () => {
  const path = dataPath();
  let s = open(path);
  const made = hooks(30).map((h, i) => ({ ...h, body: Buffer.from(JSON.stringify({ note: `lone${i}qx` })) }));
  await s.storage.hooks.insertHooks(made, () => []);
  await s.search.sweep();
  await s.storage.hooks.deleteHooks(made.slice(0, 20).map((h) => ({ id: h.id, channel: h.channel, status: "pending" as const })));
  await s.search.purge();
  /** Reads (or writes) the index file on a connection of its own, closed after: it holds no lock the thread waits for. */
  const onIndex = <T>(fn: (sql: ReturnType<typeof openDatabase>["$client"]) => T): T => {
    const sql = openDatabase({ path, durability: "normal" }).$client;
    sql.run("ATTACH DATABASE ? AS search", [`${path}-search`]);
    try {
      return fn(sql);
    } finally {
      sql.close();
    }
  };
  const n = (text: string) => onIndex((sql) => (sql.query(text).get() as { n: number }).n);
  const lone = "SELECT count(*) AS n FROM search.search_words WHERE word LIKE 'lone%'";
  const purged = "SELECT n FROM search.search_meta WHERE name = 'purged'";
  // 20 purged, fewer than the 10,000 a pass waits for: the words stay, the count is kept.
  expect(n(lone)).toBe(30);
  expect(n(purged)).toBe(20);
  expect(await ids(s, "lone")).toBe(10);
  await s.close();
  // Started again, the count is where it was: still not due.
  s = open(path);
  await s.search.purge();
  expect(n(lone)).toBe(30);
  expect(n(purged)).toBe(20);
  // An index file made before the prune has no count: it is due a pass, which the thread runs after its purge.
  onIndex((sql) => sql.run("DELETE FROM search.search_meta"));
  await s.search.purge();
  expect(n(lone)).toBe(10);
  expect(n(purged)).toBe(0);
  expect(await ids(s, "one2")).toBe(10);
  await s.close();
}, 120_000);
