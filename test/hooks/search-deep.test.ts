/**
 * A payload's leaves are indexed with and without array indexes, which doubles the paths at each
 * level of nested arrays: a 140-byte body of 60 nested arrays (within the 64 levels a payload may
 * have) stood for 2^60 paths and held the server's only thread indexing it. The walk is bounded:
 * such a hook is indexed (its other fields still found) and the server keeps answering.
 */
import { expect, test } from "bun:test";
import { eventually, startTarget } from "../helpers/target";

test("a hook of deeply nested arrays is indexed in bounded time and the server keeps answering", async () => {
  const t = await startTarget({});
  const deep = `{"kind":"nested-bomb","a":${"[".repeat(60)}${"]".repeat(60)}}`;
  const { id } = (await (await t.post("deep", deep, { "content-type": "application/json" })).json()) as { id: string };
  const found = await eventually("the hook found by a field term", async () => {
    const r = await t.call("GET", "/v1/hooks?q=payload.kind:nested-bomb");
    return r.status === 200 && r.json.length === 1 ? r.json : undefined;
  });
  expect(found[0].id).toBe(id);
  expect((await t.post("after", "{}")).status).toBe(200);
  await t.stop();
}, 30_000);
