import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp } from "../helpers/app";
import { startTarget, type Target } from "../helpers/target";

// Deduplication by the provider's delivery id. Runs on every target (MAILROOM_TEST_TARGET), except
// the window and restart tests, which need the fake clock or one data file opened twice.

const idOf = async (res: Response) => {
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
};

describe("deduplication", () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget({
      channels: [{ name: "auto", dedup: {} }, { name: "own-header", dedup: { window: "1h", header: "X-Request-Id" } }, { name: "plain" }],
    });
  });
  afterAll(() => t.stop());

  const count = async (channel: string) => ((await t.call("GET", `/v1/hooks?channel=${channel}&limit=100`)).json as unknown[]).length;
  const dropped = async (channel: string) => (await t.call("GET", `/v1/channels/${channel}/dedup`)).json.dropped as string;

  const providers: [string, Record<string, string>, string, Record<string, string>, string][] = [
    ["GitHub X-GitHub-Delivery", { "x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958" }, "{}", { "x-github-delivery": "72d3162e-0000" }, "{}"],
    ["Standard Webhooks webhook-id", { "webhook-id": "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W" }, "{}", { "webhook-id": "msg_other" }, "{}"],
    ["Svix svix-id", { "svix-id": "msg_p5jXN8AQM9LWM0D4loKWxJek" }, "{}", { "svix-id": "msg_another" }, "{}"],
    ["Shopify X-Shopify-Webhook-Id", { "x-shopify-webhook-id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043" }, "{}", { "x-shopify-webhook-id": "b5-other" }, "{}"],
    [
      "Stripe event id",
      { "stripe-signature": "t=1,v1=abc", "content-type": "application/json" },
      '{"id":"evt_1NG8Du2eZvKYlo2CUI79vXWy","object":"event"}',
      { "stripe-signature": "t=2,v1=def", "content-type": "application/json" },
      '{"id":"evt_other","object":"event"}',
    ],
  ];

  for (const [name, headers, body, otherHeaders, otherBody] of providers) {
    test(`${name}: a repeat is answered with the first hook's id and not stored again`, async () => {
      const before = await count("auto");
      const droppedBefore = Number(await dropped("auto"));
      const first = await idOf(await t.post("auto", body, headers));
      expect(await idOf(await t.post("auto", body, headers))).toBe(first);
      expect(await idOf(await t.post("auto", body, headers))).toBe(first);
      const other = await idOf(await t.post("auto", otherBody, otherHeaders));
      expect(other).not.toBe(first);
      expect(await count("auto")).toBe(before + 2);
      expect(Number(await dropped("auto"))).toBe(droppedBefore + 2);
      // And in the metrics, under the channel's label.
      const scrape = (await t.call("GET", "/metrics")).text;
      expect(scrape).toContain(`mailroom_hooks_deduplicated_total{channel="auto"} ${droppedBefore + 2}`);
    });
  }

  test("a configured header is the only id read; provider headers are then ignored", async () => {
    const a = await idOf(await t.post("own-header", "1", { "x-request-id": "req-1", "x-github-delivery": "same" }));
    expect(await idOf(await t.post("own-header", "2", { "X-Request-Id": "req-1" }))).toBe(a);
    const b = await idOf(await t.post("own-header", "3", { "x-request-id": "req-2", "x-github-delivery": "same" }));
    expect(b).not.toBe(a);
    // No id at all: always stored.
    expect(await idOf(await t.post("own-header", "4"))).not.toBe(await idOf(await t.post("own-header", "4")));
    expect(await count("own-header")).toBe(4);
    const view = (await t.call("GET", "/v1/channels/own-header/dedup")).json;
    expect(view).toEqual({ channel: "own-header", enabled: true, window: "1h", header: "x-request-id", dropped: "1", last_dropped_at: expect.any(String) });
  });

  test("a channel without dedup keeps every delivery (Mailroom keeps each request unless told otherwise)", async () => {
    const h = { "x-github-delivery": "repeat-me" };
    expect(await idOf(await t.post("plain", "{}", h))).not.toBe(await idOf(await t.post("plain", "{}", h)));
    expect((await t.call("GET", "/v1/channels/plain/dedup")).json).toEqual({ channel: "plain", enabled: false, dropped: "0", last_dropped_at: null });
  });

  test("concurrent repeats of one delivery: one hook stored, every sender gets its id", async () => {
    const h = { "x-github-delivery": "burst-1" };
    const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => t.post("auto", `{"n":${i}}`, h).then(idOf)));
    expect(new Set(ids).size).toBe(1);
    const hooks = (await t.call("GET", "/v1/hooks?channel=auto&limit=100")).json as { id: string }[];
    expect(hooks.filter((x) => x.id === ids[0]).length).toBe(1);
    expect(hooks.filter((x) => ids.includes(x.id)).length).toBe(1);
  });

  test("deleting the channel forgets its delivery ids and its counter", async () => {
    const h = { "x-shopify-webhook-id": "forget-me" };
    const first = await idOf(await t.post("auto", "{}", h));
    expect((await t.call("DELETE", "/v1/channels/auto")).status).toBe(200);
    expect((await t.call("GET", "/v1/channels/auto/dedup")).json.dropped).toBe("0");
    expect(await idOf(await t.post("auto", "{}", h))).not.toBe(first);
  });
});

test("a repeat after the window is stored again; the sweep forgets old ids", async () => {
  const app = createTestApp({ channels: [{ name: "w", dedup: { window: "10m" } }] });
  const h = { "x-github-delivery": "d-1" };
  const first = await idOf(await app.post("w", "{}", h));
  app.clock.advance(9 * 60_000);
  expect(await idOf(await app.post("w", "{}", h))).toBe(first);
  app.clock.advance(2 * 60_000);
  const again = await idOf(await app.post("w", "{}", h));
  expect(again).not.toBe(first);
  // The second one is now remembered from its own time.
  expect(await idOf(await app.post("w", "{}", h))).toBe(again);
  app.clock.advance(11 * 60_000);
  await app.dedup.worker.tick(app.clock.now());
  expect(app.db.$client.query("SELECT COUNT(*) AS n FROM deliveries").get()).toEqual({ n: 0 });
  app.close();
});

test("restart-safe: a repeat after a restart within the window gets the first id and is not stored", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-dedup-"));
  try {
    const dbPath = join(dir, "mailroom.db");
    const config = { channels: [{ name: "gh", dedup: { window: "24h" } }] };
    const h = { "x-github-delivery": "survives" };
    const one = createTestApp(config, { dbPath });
    const first = await idOf(await one.post("gh", '{"a":1}', h));
    one.close();

    const two = createTestApp(config, { dbPath });
    expect(await idOf(await two.post("gh", '{"a":1}', h))).toBe(first);
    expect((await two.call("GET", "/v1/hooks?channel=gh")).json.length).toBe(1);
    expect((await two.call("GET", "/v1/channels/gh/dedup")).json.dropped).toBe("1");
    two.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the lookup is a point query on the primary key", () => {
  const app = createTestApp();
  const plan = app.db.$client.query("EXPLAIN QUERY PLAN SELECT hook_id, created_at FROM deliveries WHERE channel = ? AND delivery_id = ?").all("a", "b") as {
    detail: string;
  }[];
  expect(plan.map((p) => p.detail).join()).toMatch(/SEARCH deliveries USING INDEX sqlite_autoindex_deliveries_1 \(channel=\? AND delivery_id=\?\)/);
  app.close();
});
