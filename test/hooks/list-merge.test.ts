import { expect, test } from "bun:test";
import { openDatabase } from "../../src/db/sqlite/open";
import { createHookStore } from "../../src/db/sqlite/hook-store";
import { HOOK_STATUSES, type HookStatus, type NewHook } from "../../src/hooks/store";
import { createIdFactory } from "../../src/lib/ids";
import { createFakeClock } from "../helpers/clock";

/**
 * Hooks carry one secondary index, so lists by channel alone and by status alone are merges of
 * index ranges. Every filter, page size and `after` must give exactly the newest-first order a
 * plain scan would.
 */
test("every filter pages through exactly the hooks a full scan finds, newest first", async () => {
  const db = openDatabase({ path: ":memory:", durability: "normal" });
  const store = createHookStore(db);
  const clock = createFakeClock();
  const nextId = createIdFactory(clock);
  const channels = ["alpha", "beta", "gamma"];
  const all: { id: string; channel: string; status: HookStatus }[] = [];
  let seed = 7;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), Math.floor((seed / 2 ** 31) * n));
  for (let i = 0; i < 400; i++) {
    if (rand(3) === 0) clock.advance(1); // several hooks share a millisecond
    const channel = channels[rand(channels.length)]!;
    // gamma never holds failed hooks: its counter is 0 and the status merge skips it
    let status = HOOK_STATUSES[rand(4)]!;
    if (channel === "gamma" && status === "failed") status = "handled";
    const hook: NewHook = {
      id: nextId(),
      channel,
      method: "POST",
      query: "",
      headers: "{}",
      body: new Uint8Array([i % 256]),
      ip: "",
      createdAt: clock.now(),
      eventType: "",
    };
    await store.transaction(() => store.insertHooks([hook], () => []));
    if (status !== "pending") {
      const raw = (await store.getHook(hook.id))!;
      await store.transaction(() => store.setStatus(raw, status, clock.now()));
    }
    all.push({ id: hook.id, channel, status });
  }
  for (const c of channels)
    for (const st of HOOK_STATUSES) {
      if (c !== "gamma" || st !== "failed") expect(all.filter((h) => h.channel === c && h.status === st).length).toBeGreaterThan(10);
    }
  const expected = (channel?: string, status?: HookStatus) =>
    all
      .filter((h) => (channel === undefined || h.channel === channel) && (status === undefined || h.status === status))
      .map((h) => h.id)
      .sort()
      .reverse();

  for (const channel of [undefined, ...channels, "nobody"]) {
    for (const status of [undefined, ...HOOK_STATUSES]) {
      for (const limit of [1, 7, 50]) {
        const seen: string[] = [];
        let after: string | undefined;
        for (let page = 0; page < 500; page++) {
          const rows = await store.listHooks({ channel, status, after, limit });
          expect(rows.length).toBeLessThanOrEqual(limit);
          for (const r of rows) {
            if (channel) expect(r.channel).toBe(channel);
            if (status) expect(r.status).toBe(status);
          }
          seen.push(...rows.map((r) => r.id));
          if (rows.length < limit) break;
          after = rows.at(-1)!.id;
        }
        expect({ channel, status, limit, ids: seen }).toEqual({ channel, status, limit, ids: expected(channel, status) });
      }
    }
  }
  db.$client.close();
});
