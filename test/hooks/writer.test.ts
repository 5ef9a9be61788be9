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
      batchMax: 100,
      commit: () => {
        if (++calls === 1) throw new Error("disk full");
      },
    });
    const results = await Promise.allSettled([w.write(hook("a")), w.write(hook("b"))]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    await expect(w.write(hook("c"))).resolves.toBeUndefined();
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
