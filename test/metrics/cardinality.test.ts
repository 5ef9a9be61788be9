import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { createTestApp } from "../helpers/app";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { createChannelLabels, OTHER } from "../../src/metrics/labels";
import { parseScrape, sample } from "./scrape";

afterAll(removeTempDirs);

test("many sender-created channels: configured ones plus the first N keep a label, the rest count under _other", async () => {
  const t = createTestApp({
    metrics: { channel_labels: 3 },
    guards: [{ name: "post-only", kind: "method", allow: ["POST"] }],
    hooks: { default_guards: ["post-only"] },
    channels: [{ name: "github" }],
  });
  // Refused requests to invented channels come first: they must not take a slot.
  for (let i = 0; i < 20; i++) {
    expect((await t.app.handle(new Request(`http://localhost/?channel=probe-${i}`, { method: "PUT" }))).status).toBe(405);
  }
  for (let i = 0; i < 200; i++) await t.catchHooks(`sender-${i}`, 1);
  await t.catchHooks("github", 2);

  const text = (await t.call("GET", "/metrics")).text;
  const m = parseScrape(text);
  const caught = m
    .get("mailroom_hooks_caught_total")!
    .metrics.map((s) => s.labels!.channel)
    .sort();
  expect(caught).toEqual(["_other", "github", "sender-0", "sender-1", "sender-2"]);
  expect(sample(m, "mailroom_hooks_caught_total", { channel: OTHER })).toBe(197);
  expect(sample(m, "mailroom_hooks_caught_total", { channel: "github" })).toBe(2);
  const held = new Set(m.get("mailroom_hooks")!.metrics.map((s) => s.labels!.channel));
  expect([...held].sort()).toEqual(["_other", "github", "sender-0", "sender-1", "sender-2"]);
  expect(sample(m, "mailroom_hooks", { channel: OTHER, status: "pending" })).toBe(197);
  const refused = m.get("mailroom_hooks_refused_total")!.metrics;
  expect(refused.map((s) => s.labels)).toEqual([{ channel: OTHER, guard: "post-only" }]);
  expect(sample(m, "mailroom_metrics_channels_labelled")).toBe(4);
  expect(text).not.toContain("probe-");
  expect(text).not.toContain("sender-3");
});

test("after a restart, the channels already stored keep their labels, oldest first; a new one gets none", async () => {
  const dbPath = join(tempDir("mailroom-metrics-"), "m.db");
  const first = createTestApp({ metrics: { channel_labels: 2 } }, { dbPath });
  for (const name of ["zulu", "alpha", "mike"]) {
    await first.catchHooks(name, 1);
    first.clock.advance(1000);
  }
  await first.close();
  const again = createTestApp({ metrics: { channel_labels: 2 } }, { dbPath });
  await again.catchHooks("new", 1);
  const m = parseScrape((await again.call("GET", "/metrics")).text);
  expect(
    m
      .get("mailroom_hooks")!
      .metrics.filter((s) => s.labels!.status === "pending")
      .map((s) => [s.labels!.channel, Number(s.value)]),
  ).toEqual([
    ["zulu", 1],
    ["alpha", 1],
    ["_other", 2],
  ]);
  expect(sample(m, "mailroom_hooks_caught_total", { channel: OTHER })).toBe(1);
  again.close();
});

test("the labels: a channel is admitted while a slot is free; looking one up never takes a slot", () => {
  const labels = createChannelLabels(["configured"], 2);
  expect(labels.of("a")).toBe(OTHER);
  expect(labels.admit("a")).toBe("a");
  expect(labels.admit("b")).toBe("b");
  expect(labels.admit("c")).toBe(OTHER);
  expect(labels.admit("configured")).toBe("configured");
  expect(labels.of("a")).toBe("a");
  expect(labels.labelled()).toBe(3);
});
