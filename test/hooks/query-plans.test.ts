import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";

/** Queries of hook columns only: no word or field term gives the index candidates. */
const COLUMN_ONLY = [
  "larger:10B",
  "smaller:1KB",
  "larger:5B smaller:1KB",
  "ip:10.0.0.0/8",
  "ip:127.0.0.1",
  "-foobar",
  "NOT status:failed",
  "NOT (status:failed OR status:discarded)",
  "-channel:a",
  "status:pending",
  "status:failed OR status:handled",
  "after:2026-01-01",
  "before:2030-01-01",
  "after:2026-01-01 before:2030-01-01",
  "after:-1h",
  "tag:billing",
  "is:unread",
  "has:attempts",
  "has:refusal",
  "-has:refusal",
  "has:refusal status:pending",
];

/** Words with a tag ANDed: read along the tag's hooks (joined to their status) when it is rare enough. */
const WORDS_AND_TAG = ["order tag:billing", "order tag:billing status:failed", "order tag:billing status:failed after:2026-01-01 before:2030-01-01"];

/**
 * Reads must stay fast at a million hooks: every statement the hook store and retention run on
 * hooks, events or attempts is served by an index. Records the SQL they prepare when the app is
 * made and while every list filter, searches of hook terms alone (COLUMN_ONLY), get, stats call
 * and both retention sweeps run, then asks SQLite for each plan.
 */
test("every statement on hooks, events and attempts is served by an index, for every list filter and retention", async () => {
  // Stores prepare most statements once, when they are made: recorded from the app's creation on.
  const seen = new Set<string>();
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database, text: string) {
    seen.add(text);
    return prepare.call(this, text);
  } as typeof prepare;
  let t: ReturnType<typeof createTestApp>;
  try {
    t = createTestApp({ hooks: { retention: "1h", max_hooks_per_channel: 3 } });
  } finally {
    Database.prototype.prepare = prepare;
  }
  const sql = t.db.$client;
  const prepareHere = sql.prepare.bind(sql);
  sql.prepare = ((text: string) => (seen.add(text), prepareHere(text))) as typeof sql.prepare;

  for (let i = 0; i < 12; i++) {
    await t.app.handle(new Request(`http://localhost/?channel=${i % 2 ? "a" : "b"}`, { method: "POST", body: `{"n":${i}}` }));
  }
  const some = (await t.call("GET", "/v1/hooks?channel=a&limit=2")).json as { id: string }[];
  await t.call("POST", `/v1/hooks/${some[0]!.id}/discard`);
  for (const filter of ["", "channel=a", "status=pending", "channel=a&status=discarded"]) {
    for (const after of ["", `&after=${some[1]!.id}`]) expect((await t.call("GET", `/v1/hooks?limit=5&${filter}${after}`)).status).toBe(200);
  }
  // Searches that no word or channel narrows: hook terms alone, negations, time ranges; alone and
  // with the list's filters, each paged once.
  for (const q of [...COLUMN_ONLY, ...WORDS_AND_TAG]) {
    for (const filter of ["", "&channel=a", "&status=pending", "&channel=a&status=pending"]) {
      for (const after of ["", `&after=${some[1]!.id}`]) {
        const r = await t.call("GET", `/v1/hooks?limit=5&q=${encodeURIComponent(q)}${filter}${after}`);
        expect({ q, filter, status: r.status }).toEqual({ q, filter, status: 200 });
      }
    }
  }
  await t.call("GET", `/v1/hooks/${some[0]!.id}`);
  await t.call("GET", `/v1/hooks/${some[0]!.id}/attempts`);
  await t.call("GET", "/v1/channels/a");
  await t.call("GET", "/v1/channels");
  await t.runner.tick(); // max_hooks_per_channel: deletes the oldest of each channel
  t.clock.advance(2 * 3600_000);
  await t.runner.tick(); // retention by age: deletes the rest
  expect((await t.call("GET", "/v1/channels/a")).json.stats).toEqual({ pending: "0", handled: "0", failed: "0", discarded: "0" });

  const bad: string[] = [];
  let checked = 0;
  for (const text of seen) {
    // hook_tags: the ranges of one tag that searches read (the tag screen's counts read the whole index);
    // hook_marks and refusals: what has:refusal reads and how a caught hook's delivery is looked up.
    if (
      !/\b(hooks|events|attempts|hook_marks)\b|hook_tags (t )?WHERE (t\.)?tag = \?|FROM "?refusals"? WHERE "?refusals"?\."?channel/.test(text) ||
      !/^\s*(SELECT|UPDATE|DELETE)/i.test(text)
    )
      continue;
    const args = [...text.matchAll(/\?/g)].map(() => "x");
    const plan = (sql.query(`EXPLAIN QUERY PLAN ${text}`).all(...args) as { detail: string }[]).map((p) => p.detail);
    checked++;
    // A walk along an index that stops at LIMIT is fine for the one list with no filter (the first
    // page of all hooks); a scan without an index, any other index walk, or sorting hooks in a temp
    // b-tree is not.
    const limited = /\bLIMIT\b/i.test(text) && !/\b(channel|status|hook_id)\s*=\s*\?/.test(text);
    const scans = plan.filter(
      (d) =>
        /^SCAN (hooks|events|attempts|hook_tags|hook_marks|refusals)$/.test(d) ||
        (/^SCAN (hooks|events|attempts|hook_tags|hook_marks|refusals) USING/.test(d) && !limited) ||
        (/FROM hooks/.test(text) && /TEMP B-TREE/.test(d)),
    );
    if (scans.length) bad.push(`${text.replace(/\s+/g, " ")}\n  -> ${scans.join("; ")}`);
  }
  expect(checked).toBeGreaterThan(10);
  // has:refusal's reads were among them: the marks of candidates, a mark's range, the refusals of a delivery id.
  for (const read of [
    /hook_marks WHERE kind = \? AND hook_id IN/,
    /hook_marks t WHERE t.kind = \? AND t.hook_id >=/,
    /FROM "refusals" WHERE "refusals"\."channel"/,
  ])
    expect({ read: String(read), seen: [...seen].some((text) => read.test(text)) }).toEqual({ read: String(read), seen: true });
  expect(bad).toEqual([]);
  t.close();
});
