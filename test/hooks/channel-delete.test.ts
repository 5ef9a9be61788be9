import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AUTH, createTestApp, type TestApp } from "../helpers/app";
import { untilClosed } from "../helpers/raw";

/** Stored hooks of a channel by status, counted in the table, beside the channel's counters. */
function countsAndStats(t: TestApp, channel: string) {
  const counts = { pending: 0, handled: 0, failed: 0, discarded: 0 } as Record<string, number>;
  for (const r of t.db.$client.query("SELECT status, COUNT(*) AS n FROM hooks WHERE channel = ? GROUP BY status").all(channel) as {
    status: string;
    n: number;
  }[]) {
    counts[r.status] = r.n;
  }
  const row = t.db.$client.query("SELECT pending, handled, failed, discarded FROM channels WHERE name = ?").get(channel) as Record<string, number> | null;
  return { counts, stats: row ? { ...row } : null, total: Object.values(counts).reduce((a, b) => a + b, 0) };
}

test("a channel's hooks go in short transactions: catching goes on meanwhile and the counters stay right after each", async () => {
  const t = createTestApp({}, { channelDeleteBatch: 3 });
  const ids = await t.catchHooks("big", 20);
  await t.call("POST", `/v1/hooks/${ids[0]}/discard`);
  await t.catchHooks("other", 2);

  const order: string[] = [];
  let midway: ReturnType<typeof countsAndStats> | undefined;
  const deleted = t.call("DELETE", "/v1/channels/big").then((r) => order.push(`deleted ${r.status}`));
  const caught = t.post("other").then((r) => {
    midway = countsAndStats(t, "big");
    order.push(`caught ${r.status}`);
  });
  await Promise.all([deleted, caught]);

  // One transaction would have finished before the hook was committed.
  expect(order).toEqual(["caught 200", "deleted 200"]);
  expect(midway!.total).toBeGreaterThan(0);
  expect(midway!.total).toBeLessThan(20);
  expect(midway!.stats).toEqual(midway!.counts);

  expect((await t.call("GET", "/v1/channels/big")).status).toBe(404);
  expect(countsAndStats(t, "big")).toEqual({ counts: { pending: 0, handled: 0, failed: 0, discarded: 0 }, stats: null, total: 0 });
  for (const id of [ids[0], ids[19]]) expect((await t.call("GET", `/v1/hooks/${id}`)).status).toBe(404);
  expect((await t.call("GET", "/v1/channels/other")).json.stats.pending).toBe("3");
  expect(t.db.$client.query("SELECT COUNT(*) AS n FROM events WHERE hook_id NOT IN (SELECT id FROM hooks)").get()).toEqual({ n: 0 });
});

test("hooks caught into the channel while it is deleted are kept: they create it again, not paused", async () => {
  const t = createTestApp({}, { channelDeleteBatch: 2 });
  const old = await t.catchHooks("big", 10);
  await t.call("POST", "/v1/channels/big/pause");
  await t.call("POST", "/v1/channels/big/resume");
  await t.call("POST", "/v1/channels/big/pause");
  const deleted = t.call("DELETE", "/v1/channels/big");
  await t.call("POST", "/v1/channels/big/resume"); // the call runs for a few turns: senders are let in again
  const [answer, newcomer] = await Promise.all([deleted, t.post("big", `{"n":99}`).then((r) => r.json() as Promise<{ id: string }>)]);
  expect(answer.status).toBe(200);
  expect((await t.call("GET", `/v1/hooks/${old[9]}`)).status).toBe(404);
  expect((await t.call("GET", `/v1/hooks/${newcomer.id}`)).json.status).toBe("pending");
  expect((await t.call("GET", "/v1/channels/big")).json).toEqual({
    name: "big",
    paused: false,
    guards: [],
    stats: { pending: "1", handled: "0", failed: "0", discarded: "0" },
  });
  const after = countsAndStats(t, "big");
  expect(after.total).toBe(1);
  expect(after.stats).toEqual(after.counts);
});

test("queued handler attempts of the channel's hooks are cancelled when the call starts: no handler runs for them", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-delete-"));
  const calls = join(dir, "calls.txt");
  writeFileSync(
    join(dir, "h.ts"),
    `import { appendFileSync } from "node:fs";\nexport default (hook: { id: string }) => { appendFileSync(${JSON.stringify(calls)}, hook.id + "\\n"); return "ok"; };\n`,
  );
  writeFileSync(calls, "");
  try {
    const t = createTestApp(
      { handlers: [{ name: "h", kind: "module", path: join(dir, "h.ts") }], channels: [{ name: "handled", handlers: ["h"] }] },
      { channelDeleteBatch: 5 },
    );
    await t.catchHooks("handled", 40);
    expect(t.db.$client.query("SELECT COUNT(*) AS n FROM attempts WHERE outcome = 'queued'").get()).toEqual({ n: 40 });
    let done = false;
    const deleted = t.call("DELETE", "/v1/channels/handled").then((r) => ((done = true), r.status));
    // Once the deletion is under way (its first batch of hooks is gone), the runner launches due
    // attempts on every turn while it goes on.
    const held = () => (t.db.$client.query("SELECT COUNT(*) AS n FROM hooks").get() as { n: number }).n;
    while (!done && held() === 40) await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false); // 40 hooks in batches of 5, resting between them: still deleting
    while (!done) {
      await t.runner.tick();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await deleted).toBe(200);
    // tick() waits for every attempt it launched: one more runs whatever could still be due.
    await t.runner.tick();
    expect(readFileSync(calls, "utf8")).toBe("");
    expect(t.db.$client.query("SELECT COUNT(*) AS n FROM attempts").get()).toEqual({ n: 0 });
    // A configured channel comes back at once, empty, and its handler runs for new hooks (the
    // control: the same ticks do run the handler, for this hook alone).
    expect((await t.call("GET", "/v1/channels/handled")).json.stats.pending).toBe("0");
    const [fresh] = await t.catchHooks("handled", 1);
    await t.runner.tick();
    expect(readFileSync(calls, "utf8")).toBe(`${fresh}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("two deletes of one channel at once share one deletion; both succeed and leave nothing behind", async () => {
  const t = createTestApp({ channels: [{ name: "conf" }] }, { channelDeleteBatch: 2 });
  await t.catchHooks("conf", 9);
  const answers = await Promise.all([t.call("DELETE", "/v1/channels/conf"), t.call("DELETE", "/v1/channels/conf")]);
  expect(answers.map((a) => a.status)).toEqual([200, 200]);
  // The second call joins the first, so that it cannot undo what was done after the first answered.
  await t.catchHooks("conf", 3);
  const first = t.channels.delete("conf");
  expect(t.channels.delete("conf")).toBe(first);
  await first;
  // A configured channel is declared again, empty.
  expect((await t.call("GET", "/v1/channels/conf")).json.stats).toEqual({ pending: "0", handled: "0", failed: "0", discarded: "0" });
  expect(countsAndStats(t, "conf").total).toBe(0);
});

test("deleting a channel that keeps receiving hooks faster than one batch per turn still finishes", async () => {
  const t = createTestApp({}, { channelDeleteBatch: 2 });
  const old = await t.catchHooks("busy", 10);
  let done = false;
  const deleted = t.call("DELETE", "/v1/channels/busy").then((r) => ((done = true), r.status));
  let rounds = 0;
  // Four hooks per turn against two deleted per turn: only the hooks caught before the call are batched.
  while (!done && rounds++ < 200) await t.catchHooks("busy", 4);
  expect(await deleted).toBe(200);
  expect(rounds).toBeLessThan(200);
  const left = t.db.$client.query("SELECT id FROM hooks WHERE channel = 'busy'").all() as { id: string }[];
  expect(left.filter((h) => old.includes(h.id))).toEqual([]);
  const after = countsAndStats(t, "busy");
  expect(after.stats).toEqual(after.counts);
});

test("a deletion that outlasts the connection's idle timeout is still answered on it", async () => {
  const t = createTestApp({}, { channelDeleteBatch: 1 });
  await t.catchHooks("slow", 4);
  const server = t.listen({ idleTimeout: 1 });
  // Once the deletion has started, a connection opened after the DELETE's went quiet sends half a
  // request; the deletion goes on only when the server has closed that one as idle (Bun enforces
  // 1 s within a few seconds), so the DELETE's own idle timeout has passed by then too.
  const newestId = t.store.newestId;
  t.store.newestId = async (name) => {
    await untilClosed(Number(new URL(server.url).port), "POST /?channel=idle HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{");
    return newestId(name);
  };
  try {
    const res = await fetch(`${server.url}/v1/channels/slow`, { method: "DELETE", headers: AUTH });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
  } finally {
    server.stop();
  }
  expect((await t.call("GET", "/v1/channels/slow")).status).toBe(404);
}, 15_000);
