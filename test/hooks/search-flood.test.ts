/**
 * The search index holds a bounded amount of caught bodies in memory: past the limit, caught hooks
 * are left out of its queue and a sweep reads them back from the database. None is lost to search:
 * with a limit of 1,200 bytes, at most one of these hooks fits in the queue, and every one is found.
 */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";

test("hooks caught past the index's memory limit are indexed by a sweep: every one is found", async () => {
  const t = createTestApp({}, { searchMaxWaitingBytes: 1200 });
  const words = Array.from({ length: 60 }, (_, i) => `flood${String(i).padStart(3, "0")}word`);
  const answers = await Promise.all(
    words.map((w) => t.post("flood", JSON.stringify({ marker: w, pad: "x".repeat(80) }), { "content-type": "application/json" })),
  );
  expect(answers.map((r) => r.status)).toEqual(words.map(() => 200));
  for (const w of words) {
    const r = await t.call("GET", `/v1/hooks?q=${w}`);
    expect({ w, status: r.status, found: r.json.length }).toEqual({ w, status: 200, found: 1 });
  }
  t.close();
}, 30_000);
