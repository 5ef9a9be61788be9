import { describe, expect, test } from "bun:test";
import { createBatchWriter } from "../../src/hooks/writer";
import type { NewHook } from "../../src/hooks/store";

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

  test("a failed commit rejects exactly its batch; the writer goes on", async () => {
    let calls = 0;
    const w = createBatchWriter({
      batchMax: 2,
      commit: () => {
        if (++calls === 1) throw new Error("disk full");
      },
    });
    const results = await Promise.allSettled(["a", "b", "c"].map((id) => w.write(hook(id))));
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "fulfilled"]);
    await expect(w.write(hook("c"))).resolves.toBeUndefined();
  });

  test("with two lanes, hooks caught while a batch commits go in a second batch committing beside it; one lane waits", async () => {
    for (const lanes of [1, 2]) {
      const open: string[][] = [];
      const release: (() => void)[] = [];
      const w = createBatchWriter({
        batchMax: 100, lanes,
        commit: (b) => {
          open.push(b.map((h) => h.id));
          return new Promise<void>((r) => release.push(r));
        },
      });
      const first = w.write(hook("a"));
      await new Promise((r) => setImmediate(r));
      const second = w.write(hook("b"));
      await new Promise((r) => setImmediate(r));
      expect({ lanes, open }).toEqual({ lanes, open: lanes === 2 ? [["a"], ["b"]] : [["a"]] });
      while (release.length) release.shift()!(), await new Promise((r) => setImmediate(r));
      await Promise.all([first, second]);
      expect(open).toEqual([["a"], ["b"]]);
      await w.drain();
    }
  });

  test("drain resolves once everything queued is committed", async () => {
    const committed: string[] = [];
    const w = createBatchWriter({ batchMax: 10, commit: (b) => void committed.push(...b.map((h) => h.id)) });
    void w.write(hook("a"));
    void w.write(hook("b"));
    await w.drain();
    expect(committed).toEqual(["a", "b"]);
  });
});

describe("durable batches (durability = full)", () => {
  test("callers are answered only once the batch is durable; the next batch commits meanwhile", async () => {
    const committed: string[][] = [];
    const syncs: (() => void)[] = [];
    const w = createBatchWriter({
      batchMax: 100,
      commit: (b) => void committed.push(b.map((h) => h.id)),
      durable: () => new Promise<void>((resolve) => syncs.push(resolve)),
    });
    let firstDone = false;
    const first = w.write(hook("a")).then(() => (firstDone = true));
    await new Promise((r) => setImmediate(r));
    expect(committed).toEqual([["a"]]);
    expect(firstDone).toBe(false);
    const second = w.write(hook("b"));
    await new Promise((r) => setImmediate(r));
    expect(committed).toEqual([["a"], ["b"]]);
    syncs[0]!();
    await first;
    syncs[1]!();
    await second;
    await w.drain();
  });

  test("a failed sync rejects its batch", async () => {
    const w = createBatchWriter({ batchMax: 10, commit: () => {}, durable: () => Promise.reject(new Error("EIO")) });
    await expect(w.write(hook("a"))).rejects.toThrow("EIO");
  });
});

describe("WAL sync", () => {
  test("calls during a running sync share the next one, which starts after it", async () => {
    const { createWalSync } = await import("../../src/db/wal-sync");
    const started: (() => void)[] = [];
    const wal = createWalSync("unused", () => new Promise<void>((resolve) => started.push(resolve)));
    const a = wal.sync();
    const b = wal.sync();
    const c = wal.sync();
    expect(started.length).toBe(1);
    let bDone = false;
    void b.then(() => (bDone = true));
    started[0]!();
    await a;
    await new Promise((r) => setImmediate(r));
    expect(started.length).toBe(2);
    expect(bDone).toBe(false);
    started[1]!();
    await Promise.all([b, c]);
    expect(started.length).toBe(2);
  });

  test("syncs a real WAL file", async () => {
    const { createWalSync } = await import("../../src/db/wal-sync");
    const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(`${tmpdir()}/mailroom-wal-`);
    writeFileSync(`${dir}/x.db-wal`, "frames");
    const wal = createWalSync(`${dir}/x.db-wal`);
    await expect(wal.sync()).resolves.toBeUndefined();
    wal.close();
    // A sync that cannot happen fails the batch rather than passing silently.
    const missing = createWalSync(`${dir}/missing.db-wal`);
    await expect(missing.sync()).rejects.toThrow();
    rmSync(dir, { recursive: true });
  });
});
