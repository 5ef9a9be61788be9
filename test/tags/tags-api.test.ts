/**
 * Tags and read marks over the management API (docs/tags.md): POST and DELETE
 * /v1/hooks/{id}/tags, the tag rule answered in the documented error body, and the reader of an
 * API key. Runs on every target (MAILROOM_TEST_TARGET).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTarget, type Target } from "../helpers/target";

describe("tags over /v1", () => {
  let t: Target;
  let ids: string[];
  beforeAll(async () => {
    t = await startTarget();
    ids = await t.catchHooks("shop", 2);
  });
  afterAll(() => t?.stop());

  test("POST adds tags once each, DELETE removes them; each answers the hook's tags sorted", async () => {
    const added = await t.call("POST", `/v1/hooks/${ids[0]}/tags`, { tags: ["billing", "big", "billing"] });
    expect(added.status).toBe(200);
    expect(added.json).toEqual({ tags: ["big", "billing"] });
    expect((await t.call("POST", `/v1/hooks/${ids[0]}/tags`, { tags: ["v1.2_x-y"] })).json).toEqual({ tags: ["big", "billing", "v1.2_x-y"] });
    const removed = await t.call("DELETE", `/v1/hooks/${ids[0]}/tags`, { tags: ["big", "never-there"] });
    expect(removed.status).toBe(200);
    expect(removed.json).toEqual({ tags: ["billing", "v1.2_x-y"] });
    // The other hook is untouched.
    expect((await t.call("DELETE", `/v1/hooks/${ids[1]}/tags`, { tags: ["billing"] })).json).toEqual({ tags: [] });
  });

  test("the Hook resource stays exact: GET of a tagged hook has no tags property", async () => {
    await t.call("POST", `/v1/hooks/${ids[1]}/tags`, { tags: ["x"] });
    const hook = await t.call("GET", `/v1/hooks/${ids[1]}`);
    expect(hook.status).toBe(200);
    expect(Object.keys(hook.json as object)).not.toContain("tags");
    expect((await t.call("GET", `/v1/hooks?channel=shop`)).json.map((h: object) => "tags" in h)).toEqual([false, false]);
    // With include=extensions: the tags, sorted; absent on a hook without.
    expect((await t.call("GET", `/v1/hooks/${ids[1]}?include=extensions`)).json.tags).toEqual(["x"]);
    const listed = (await t.call("GET", "/v1/hooks?channel=shop&include=extensions")).json as { id: string; tags?: string[] }[];
    expect(listed.find((h) => h.id === ids[1])!.tags).toEqual(["x"]);
    // Summaries (the dashboard's rows) carry them with include=extensions too, and only then.
    const rows = (await t.call("GET", "/v1/hooks?channel=shop&fields=summary&include=extensions")).json as { id: string; tags?: string[] }[];
    expect(rows.find((h) => h.id === ids[1])!.tags).toEqual(["x"]);
    expect(rows.find((h) => h.id === ids[0])).toBeDefined();
    expect((await t.call("GET", "/v1/hooks?channel=shop&fields=summary")).json.map((h: object) => "tags" in h)).toEqual([false, false]);
  });

  for (const [what, body] of [
    ["an upper-case tag", { tags: ["Billing"] }],
    ["a tag with a colon", { tags: ["a:b"] }],
    ["a tag of 33 characters", { tags: ["a".repeat(33)] }],
    ["an empty list", { tags: [] }],
    ["21 tags", { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }],
    ["a tag that is a number", { tags: [1] }],
    ["another property", { tags: ["a"], more: 1 }],
    ["no body", undefined],
  ] as const) {
    test(`${what} answers 400 invalid_argument in the documented error body`, async () => {
      const res = await t.call("POST", `/v1/hooks/${ids[0]}/tags`, body);
      expect(res.status).toBe(400);
      const error = res.json as { code: number; message: string; details: unknown[] };
      expect(error.code).toBe(3);
      expect(error.details).toEqual([]);
      expect(typeof error.message).toBe("string");
    });
  }

  test("a hook that does not exist answers 404 not_found", async () => {
    const res = await t.call("POST", "/v1/hooks/01jz0000000000000000000000/tags", { tags: ["a"] });
    expect(res.status).toBe(404);
    expect((res.json as { code: number }).code).toBe(5);
  });

  test("without a key: 401", async () => {
    const res = await t.call("POST", `/v1/hooks/${ids[0]}/tags`, { tags: ["a"] }, {});
    expect(res.status).toBe(401);
  });

  test("an API key is a reader of its own: hooks are unread until it marks them read", async () => {
    const before = (await t.call("GET", "/v1/unread")).json as { total: number; channels: Record<string, number> };
    expect(before.channels.shop).toBe(2);
    expect((await t.call("POST", `/v1/hooks/${ids[0]}/read`)).json).toEqual({ read: true });
    expect((await t.call("GET", "/v1/unread")).json).toEqual({ total: 1, channels: { shop: 1 } });
    expect((await t.call("DELETE", `/v1/hooks/${ids[0]}/read`)).json).toEqual({ read: false });
    expect((await t.call("GET", "/v1/unread")).json).toEqual({ total: 2, channels: { shop: 2 } });
  });

  test("tag: and is:unread search the list: tags as stored, unread for the asking key", async () => {
    const more = await t.catchHooks("other", 3);
    await t.call("POST", `/v1/hooks/${more[0]}/tags`, { tags: ["vip"] });
    await t.call("POST", `/v1/hooks/${more[2]}/tags`, { tags: ["vip", "big"] });
    const list = async (q: string) => {
      const res = await t.call("GET", `/v1/hooks?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      return (res.json as { id: string }[]).map((h) => h.id);
    };
    expect(await list("tag:vip")).toEqual([more[2]!, more[0]!]);
    expect(await list("tag:vip -tag:big")).toEqual([more[0]!]);
    await t.call("POST", `/v1/hooks/${more[1]}/read`);
    expect(await list("is:unread channel:other")).toEqual([more[2]!, more[0]!]);
    expect(await list("-is:unread channel:other")).toEqual([more[1]!]);
    expect((await t.call("GET", `/v1/hooks?q=${encodeURIComponent("tag:Bad:tag")}`)).status).toBe(400);
    expect((await t.call("GET", `/v1/hooks?q=${encodeURIComponent("is:starred")}`)).status).toBe(400);
  });
});
