import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { createTestApp } from "../helpers/app";
import { removeTempDirs, tempDir } from "../helpers/binary";

afterAll(removeTempDirs);

/** A WAL sync that waits until the test releases it; `syncing` resolves when the first one starts. */
function heldSyncs() {
  const releases: (() => void)[] = [];
  const { promise: syncing, resolve: started } = Promise.withResolvers<void>();
  const syncWal = () => new Promise<void>((resolve) => (releases.push(resolve), started()));
  return { syncWal, syncing, releases };
}

const synchronous = (t: ReturnType<typeof createTestApp>) => (t.db.$client.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous;

test('durability "full": a hook is answered only once the WAL sync after its commit has ended', async () => {
  const { syncWal, syncing, releases } = heldSyncs();
  const t = createTestApp({ storage: { durability: "full" } }, { dbPath: join(tempDir("mailroom-dur-"), "m.db"), syncWal });
  let answered = false;
  const res = t.post("shop", '{"n":1}').then((r) => ((answered = true), r));
  await syncing;
  expect(releases.length).toBe(1);
  // Committed (visible) but not yet promised: the sync is what the answer waits for. The control:
  // a request sent after the commit has been answered, as the hook's would have been by then.
  expect((await t.call("GET", "/v1/channels/shop")).json.stats.pending).toBe("1");
  expect(answered).toBe(false);
  releases[0]!();
  expect((await res).status).toBe(200);
  // Batches commit unsynced; every other write is back at synchronous = FULL (2).
  expect(synchronous(t)).toBe(2);
  t.close();
});

test('durability "normal": no WAL sync is waited for, and the connection stays at synchronous = NORMAL', async () => {
  let syncs = 0;
  const t = createTestApp(
    { storage: { durability: "normal" } },
    {
      dbPath: join(tempDir("mailroom-dur-"), "m.db"),
      syncWal: async () => void syncs++,
    },
  );
  expect((await t.post("shop", '{"n":1}')).status).toBe(200);
  expect(syncs).toBe(0);
  expect(synchronous(t)).toBe(1);
  t.close();
});

test("a burst of hooks is one batch: one counter update per channel, and prepares no statement", async () => {
  // Contract checks follow caught batches in their own queue, after the answers (test/contracts/):
  // off here, so that only catching is counted.
  const t = createTestApp({ contracts: { enabled: false } });
  const sql = t.db.$client;
  // Count what SQLite actually executes: a temp trigger on every UPDATE of channels.
  sql.run("CREATE TEMP TABLE counter_updates (channel TEXT)");
  sql.run("CREATE TEMP TRIGGER count_updates AFTER UPDATE ON channels BEGIN INSERT INTO counter_updates VALUES (new.name); END");
  await Promise.all([t.post("a", "warm"), t.post("b", "warm")]);
  sql.run("DELETE FROM counter_updates");
  let prepared = 0;
  const prepare = sql.prepare.bind(sql);
  sql.prepare = ((text: string) => (prepared++, prepare(text))) as typeof sql.prepare;

  const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => t.post(i % 2 ? "a" : "b", `{"n":${i}}`)));
  expect(answers.every((r) => r.status === 200)).toBe(true);
  const updates = sql.query("SELECT channel, count(*) AS n FROM counter_updates GROUP BY channel ORDER BY channel").all();
  expect(updates).toEqual([
    { channel: "a", n: 1 },
    { channel: "b", n: 1 },
  ]);
  expect(prepared).toBe(0);
  expect((await t.call("GET", "/v1/channels/a")).json.stats.pending).toBe("51");
  t.close();
});

test('durability "full": the runner hears of a hook with handlers only once its batch is on disk', async () => {
  const { syncWal, syncing, releases } = heldSyncs();
  const t = createTestApp(
    {
      storage: { durability: "full" },
      handlers: [{ name: "fw", kind: "forward", url: "http://127.0.0.1:9/" }],
      channels: [{ name: "shop", handlers: ["fw"] }],
    },
    { dbPath: join(tempDir("mailroom-dur-"), "m.db"), syncWal },
  );
  let notified = 0;
  t.runner.notify = () => void notified++;
  const res = t.post("shop", '{"n":1}');
  await syncing;
  // Committed with its queued attempt, but not synced: no handler may run on it yet (the control:
  // a request sent after the commit has been answered).
  expect((await t.call("GET", "/v1/channels/shop")).json.stats.pending).toBe("1");
  expect(notified).toBe(0);
  releases[0]!();
  expect((await res).status).toBe(200);
  expect(notified).toBe(1);
  t.close();
});

test("[storage] batch_max caps a batch: a burst of 5 with a cap of 2 is three transactions", async () => {
  const t = createTestApp({ storage: { batch_max: 2 } });
  const sql = t.db.$client;
  await t.post("a", "warm");
  sql.run("CREATE TEMP TABLE counter_updates (channel TEXT)");
  sql.run("CREATE TEMP TRIGGER count_updates AFTER UPDATE ON channels BEGIN INSERT INTO counter_updates VALUES (new.name); END");
  const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => t.post("a", `{"n":${i}}`)));
  expect(answers.every((r) => r.status === 200)).toBe(true);
  // One counter update per channel per batch.
  expect(sql.query("SELECT count(*) AS n FROM counter_updates").get()).toEqual({ n: 3 });
  t.close();
});

test("catching decodes nothing: no body is parsed and the headers are serialised once per hook; the search index reads them after", async () => {
  // The index's gathering outlasts the window watched here: only the catching path is counted.
  // Contract checks, which parse JSON bodies after the answers (test/contracts/), are off for the same reason.
  const t = createTestApp({ contracts: { enabled: false } }, { searchGatherMs: 60_000 });
  await t.post("a", "warm");
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const decode = TextDecoder.prototype.decode;
  let parsed = 0;
  let stringified = 0;
  let decoded = 0;
  JSON.parse = ((...args: Parameters<typeof parse>) => (parsed++, parse(...args))) as typeof parse;
  JSON.stringify = ((...args: Parameters<typeof stringify>) => (stringified++, stringify(...args))) as typeof stringify;
  TextDecoder.prototype.decode = function (...args: Parameters<typeof decode>) {
    decoded++;
    return decode.apply(this, args);
  };
  let answers: Response[];
  try {
    answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.app.handle(
          new Request("http://localhost/?channel=a", {
            method: "POST",
            headers: { "content-type": "application/json", "x-n": String(i) },
            body: `{"n":${i},"deep":{"x":[1,2,3]}}`,
          }),
        ),
      ),
    );
  } finally {
    JSON.parse = parse;
    JSON.stringify = stringify;
    TextDecoder.prototype.decode = decode;
  }
  expect(answers.every((r) => r.status === 200)).toBe(true);
  expect({ parsed, decoded }).toEqual({ parsed: 0, decoded: 0 });
  // The headers of each hook, and the guards of a new channel once per batch at most.
  expect(stringified).toBeLessThanOrEqual(21);
  // The index does its decoding later, off the catching path: the hooks are found once it ran.
  await t.search.flush();
  expect((await t.call("GET", "/v1/hooks?q=payload.deep.x:2&limit=100")).json.length).toBe(20);
  t.close();
});
