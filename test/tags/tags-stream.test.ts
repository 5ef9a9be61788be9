/**
 * Tags and read marks on the stream (docs/tags.md): a hook whose tags change is sent again, with its
 * tags, whoever changed them (a request, a bulk action); summaries carry them too. A read mark sends
 * its channel again. Runs on every target.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AUTH } from "../helpers/app";
import { startTarget, type Target } from "../helpers/target";
import { sseReader } from "../live/sse";

describe("tags on the stream", () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget({ tag_rules: [{ query: "payload.kind:ping", tags: ["ping"] }] });
  });
  afterAll(() => t?.stop());

  const open = async (query: string) => {
    const res = await fetch(`${await t.url()}/v1/stream${query}`, { headers: AUTH });
    expect(res.status).toBe(200);
    return sseReader(res);
  };
  const withTags = (id: string, tags: string[] | undefined) => (e: { event: string; data: string }) => {
    if (e.event !== "hook") return false;
    const h = JSON.parse(e.data) as { id: string; tags?: string[] };
    return h.id === id && JSON.stringify(h.tags) === JSON.stringify(tags);
  };

  test("a tag added or removed sends the hook again with its tags, as the whole hook and as a summary", async () => {
    const [id] = await t.catchHooks("streamed", 1);
    const full = await open("?channel=streamed");
    const summary = await open("?channel=streamed&fields=summary");
    expect((await t.call("POST", `/v1/hooks/${id}/tags`, { tags: ["billing", "big"] })).status).toBe(200);
    const [sent] = await Promise.all([full.next(withTags(id!, ["big", "billing"])), summary.next(withTags(id!, ["big", "billing"]))]);
    // The whole hook is GetHook's with include=extensions.
    expect(JSON.parse(sent.data)).toEqual((await t.call("GET", `/v1/hooks/${id}?include=extensions`)).json);
    expect((await t.call("DELETE", `/v1/hooks/${id}/tags`, { tags: ["billing", "big"] })).status).toBe(200);
    await Promise.all([full.next(withTags(id!, undefined)), summary.next(withTags(id!, undefined))]);
    await Promise.all([full.cancel(), summary.cancel()]);
  });

  test("a read mark sends its hook's channel again (open dashboards read their unread counts again), not the hook", async () => {
    const [id] = await t.catchHooks("marked", 1);
    const stream = await open("?channel=marked&fields=summary");
    // A fence: what a tag sends (the hook, then its channel) has come; nothing else is on its way.
    await t.call("POST", `/v1/hooks/${id}/tags`, { tags: ["fence"] });
    await stream.next(withTags(id!, ["fence"]));
    await stream.next((e) => e.event === "channel");
    expect((await t.call("POST", `/v1/hooks/${id}/read`)).status).toBe(200);
    const channel = await stream.next((e) => e.event === "channel" || e.event === "hook");
    expect(channel.event).toBe("channel");
    expect(JSON.parse(channel.data).name).toBe("marked");
    expect((await t.call("DELETE", `/v1/hooks/${id}/read`)).status).toBe(200);
    expect((await stream.next((e) => e.event === "channel" || e.event === "hook")).event).toBe("channel");
    await stream.cancel();
  });

  test("a hook a tag rule tags as it is caught comes again with its tags", async () => {
    const stream = await open("?channel=ruled&fields=summary");
    const sent = await t.post("ruled", JSON.stringify({ kind: "ping" }), { "content-type": "application/json" });
    const { id } = (await sent.json()) as { id: string };
    await stream.next(withTags(id, ["ping"]));
    await stream.cancel();
  });

  test("a bulk tag sends each hook it tagged again", async () => {
    const ids = await t.catchHooks("bulked", 3);
    const stream = await open("?channel=bulked&fields=summary");
    const started = await t.call("POST", "/v1/hooks/bulk", { query: "channel:bulked", action: "tag", tags: ["swept"] });
    expect(started.status).toBe(200);
    for (const id of ids) await stream.next(withTags(id, ["swept"]));
    await stream.cancel();
  });
});
