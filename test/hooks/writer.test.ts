import { afterAll, describe, expect, test } from "bun:test";
import { createBatchWriter } from "../../src/hooks/writer";
import type { NewHook } from "../../src/hooks/store";
import { createTestApp } from "../helpers/app";
import { removeTempDirs, tempDir } from "../helpers/binary";

afterAll(removeTempDirs);

const hook = (id: string): NewHook => ({
  id, channel: "c", method: "POST", query: "", headers: "{}", body: new Uint8Array(), ip: "", createdAt: 0,
});

describe("group commit", () => {
  test("writes of one turn share a batch; a synchronous commit answers them together", async () => {
    const batches: string[][] = [];
    const w = createBatchWriter({ batchMax: 100, commit: (b) => void batches.push(b.map((h) => h.id)) });
    await Promise.all(["a", "b", "c"].map((id) => w.write(hook(id))));
    await w.write(hook("d"));
    expect(batches).toEqual([["a", "b", "c"], ["d"]]);
  });

  test("batch_max caps a batch", async () => {
    const sizes: number[] = [];
    const w = createBatchWriter({ batchMax: 2, commit: (b) => void sizes.push(b.length) });
    await Promise.all(["a", "b", "c", "d", "e"].map((id) => w.write(hook(id))));
    expect(sizes).toEqual([2, 2, 1]);
  });

  test("an asynchronous commit has one batch in flight; the next grows meanwhile and is sent on acknowledgement", async () => {
    const sent: string[][] = [];
    const acks: (() => void)[] = [];
    const w = createBatchWriter({
      batchMax: 100,
      commit: (b) => {
        sent.push(b.map((h) => h.id));
        return new Promise<void>((resolve) => acks.push(resolve));
      },
    });
    const first = w.write(hook("a"));
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual([["a"]]);
    let secondDone = false;
    const second = Promise.all([w.write(hook("b")), w.write(hook("c"))]).then(() => (secondDone = true));
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual([["a"]]);
    acks[0]!();
    await first;
    expect(sent).toEqual([["a"], ["b", "c"]]);
    expect(secondDone).toBe(false);
    acks[1]!();
    await second;
    await w.drain();
  });

  test("a failed commit rejects exactly its batch; the writer goes on", async () => {
    let calls = 0;
    const w = createBatchWriter({
      batchMax: 100,
      commit: () => {
        if (++calls === 1) return Promise.reject(new Error("disk full"));
      },
    });
    const results = await Promise.allSettled([w.write(hook("a")), w.write(hook("b"))]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    await expect(w.write(hook("c"))).resolves.toBeUndefined();
  });

  test("drain waits for what is queued and in flight", async () => {
    let release = () => {};
    const w = createBatchWriter({ batchMax: 10, commit: () => new Promise<void>((r) => (release = r)) });
    let written = false;
    void w.write(hook("a")).then(() => (written = true));
    const drained = w.drain();
    await new Promise((r) => setImmediate(r));
    release();
    await drained;
    expect(written).toBe(true);
  });
});

describe("the commit thread", () => {
  test("an in-memory database always commits inline", () => {
    expect(createTestApp({ storage: { writer: "thread" } }).committer.mode()).toBe("inline");
  });

  test("a thread that cannot start falls back to inline commits and loses nothing", async () => {
    const dir = tempDir("mailroom-writer-");
    const { buildConfig } = await import("../../src/config/load");
    const { openDatabase } = await import("../../src/db/open");
    const { createApp } = await import("../../src/app");
    const { createRunner } = await import("../../src/runner");
    const { silentLog } = await import("../../src/lib/log");
    const { createFakeClock } = await import("../helpers/clock");
    const config = buildConfig({ storage: { path: `${dir}/x.db` }, api_keys: [{ label: "t", token: "tttttttt" }] });
    const db = openDatabase({ path: config.storage.path, durability: "normal" });
    const clock = createFakeClock();
    const runner = createRunner({ config, db, clock, log: silentLog });
    const built = createApp({ config, db, clock, log: silentLog, runner, apiKeys: [], commitThreadUrl: "file:///nowhere/commit-thread.ts" });
    const res = await built.app.handle(new Request("http://localhost/?channel=x", { method: "POST", body: "kept" }));
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    expect(built.committer.mode()).toBe("inline");
    expect(Buffer.from(built.store.getHook(id)!.body).toString()).toBe("kept");
    await built.close();
    db.$client.close();
  });

  for (const writer of ["thread", "inline"] as const) {
    test(`${writer}: concurrent hooks, counters, default guards and first attempts are stored together`, async () => {
      const dir = tempDir("mailroom-writer-");
      const t = createTestApp(
        {
          storage: { writer },
          handlers: [{ name: "later", kind: "forward", url: "http://127.0.0.1:9/never", backoff: { initial: "1h", max: "1h" } }],
          channels: [{ name: "handled", handlers: ["later"] }],
        },
        { dbPath: `${dir}/hooks.db` },
      );
      const send = (channel: string, i: number) =>
        t.app.handle(new Request(`http://localhost/?channel=${channel}`, { method: "POST", body: `{"i":${i}}` })).then((r) => r.json() as Promise<{ id: string }>);
      const ids = await Promise.all(Array.from({ length: 150 }, (_, i) => send(i % 3 === 0 ? "handled" : "plain", i)));
      expect(new Set(ids.map((r) => r.id)).size).toBe(150);
      expect((await t.call("GET", "/v1/channels/plain")).json.stats.pending).toBe("100");
      expect((await t.call("GET", "/v1/channels/handled")).json.stats.pending).toBe("50");
      const attempts = (await t.call("GET", `/v1/hooks/${ids[0]!.id}/attempts`)).json;
      expect(attempts).toMatchObject([{ handler: "later", attempt: 1, outcome: "queued" }]);
      expect(t.committer.mode()).toBe(writer);
      await t.close();
    });
  }
});
