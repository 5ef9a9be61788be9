import { describe, expect, test } from "bun:test";
import { createBatchWriter, SenderGone } from "../../src/hooks/writer";
import type { NewHook } from "../../src/hooks/store";
import { silentLog } from "../../src/lib/log";

const hook = (id: string): NewHook => ({
  id,
  eventType: "",
  channel: "c",
  method: "POST",
  query: "",
  headers: "{}",
  body: new Uint8Array(),
  ip: "",
  createdAt: 0,
});

describe("group commit", () => {
  test("writes of one turn share a batch; a synchronous commit answers them together", async () => {
    const batches: string[][] = [];
    const w = createBatchWriter({ log: silentLog, batchMax: 100, commit: (b) => void batches.push(b.map((h) => h.id)) });
    await Promise.all(["a", "b", "c"].map((id) => w.write(hook(id))));
    await w.write(hook("d"));
    expect(batches).toEqual([["a", "b", "c"], ["d"]]);
  });

  test("a hook whose sender is gone when its batch is taken is left out and rejects with SenderGone; the others commit", async () => {
    const batches: string[][] = [];
    const w = createBatchWriter({ log: silentLog, batchMax: 100, commit: (b) => void batches.push(b.map((h) => h.id)) });
    let closed = false;
    const writes = [w.write(hook("a")), w.write(hook("b"), () => closed), w.write(hook("c"), () => false)];
    closed = true; // after the write, before the batch is taken: as a pipelined request's close comes
    const results = await Promise.allSettled(writes);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(SenderGone);
    expect(batches).toEqual([["a", "c"]]);
    // A batch of gone senders only commits nothing, and the writer goes on.
    await expect(w.write(hook("d"), () => true)).rejects.toBeInstanceOf(SenderGone);
    await w.write(hook("e"));
    expect(batches).toEqual([["a", "c"], ["e"]]);
    await w.drain();
  });

  test("the hooks of one batch whose senders left are told once, together (one log line when many connections close at once)", async () => {
    const told: string[][] = [];
    const w = createBatchWriter({ log: silentLog, batchMax: 100, commit: () => {}, gone: (hooks) => void told.push(hooks.map((h) => h.id)) });
    let closed = false;
    const writes = ["a", "b", "c", "d"].map((id) => w.write(hook(id), () => closed && id !== "c"));
    closed = true; // every connection but c's closes before the batch is taken
    const results = await Promise.allSettled(writes);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "fulfilled", "rejected"]);
    expect(told).toEqual([["a", "b", "d"]]);
    await w.write(hook("e"));
    expect(told).toHaveLength(1);
  });

  test("batch_max caps a batch", async () => {
    const sizes: number[] = [];
    const w = createBatchWriter({ log: silentLog, batchMax: 2, commit: (b) => void sizes.push(b.length) });
    await Promise.all(["a", "b", "c", "d", "e"].map((id) => w.write(hook(id))));
    expect(sizes).toEqual([2, 2, 1]);
  });

  test("a failed commit rejects exactly its batch; the writer goes on", async () => {
    let calls = 0;
    const w = createBatchWriter({
      log: silentLog,
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
        log: silentLog,
        batchMax: 100,
        lanes,
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
    const w = createBatchWriter({ log: silentLog, batchMax: 10, commit: (b) => void committed.push(...b.map((h) => h.id)) });
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
      log: silentLog,
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
    const w = createBatchWriter({ log: silentLog, batchMax: 10, commit: () => {}, durable: () => Promise.reject(new Error("EIO")) });
    await expect(w.write(hook("a"))).rejects.toThrow("EIO");
  });
});

describe("a sender gone while its batch commits (a pipelined request came meanwhile)", () => {
  for (const durable of [false, true]) {
    test(`its hook is taken back before anyone is answered or told; the others are answered (durable: ${durable})`, async () => {
      const order: string[] = [];
      let closed = false;
      const w = createBatchWriter({
        log: silentLog,
        batchMax: 100,
        commit: () => {
          closed = true; // after the batch was taken
          return (kept) => void order.push(`told ${kept.map((h) => h.id)}`);
        },
        durable: durable ? async () => {} : undefined,
        retract: async (hooks) => (order.push(`retracted ${hooks.map((h) => h.id)}`), hooks.map((h) => h.id)),
        gone: (hooks) => void order.push(`gone ${hooks.map((h) => h.id)}`),
      });
      const results = await Promise.allSettled([
        w.write(hook("a")).then(() => order.push("answered a")),
        w.write(hook("b"), () => closed),
        w.write(hook("c"), () => false).then(() => order.push("answered c")),
      ]);
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(SenderGone);
      expect(order).toEqual(["retracted b", "gone b", "told a,c", "answered a", "answered c"]);
      await w.drain();
    });
  }

  test("a hook retract keeps, or cannot take back, is answered as the others (it is stored); a batch taken back wholly is told nothing", async () => {
    const told: string[][] = [];
    const errors: string[] = [];
    let calls = 0;
    let closed = false;
    const w = createBatchWriter({
      log: { error: (message: string) => void errors.push(message) },
      batchMax: 100,
      commit: () => {
        closed = true;
        return (kept) => void told.push(kept.map((h) => h.id));
      },
      retract: async (hooks) => {
        if (++calls === 1) return [];
        if (calls === 2) throw new Error("disk full");
        return hooks.map((h) => h.id);
      },
    });
    /** A hook whose connection closes while its batch commits. */
    const closing = (id: string) => ((closed = false), w.write(hook(id), () => closed));
    await closing("kept");
    await closing("stuck");
    await expect(closing("back")).rejects.toBeInstanceOf(SenderGone);
    expect(told).toEqual([["kept"], ["stuck"]]);
    expect(errors).toHaveLength(1);
    await w.drain();
  });
});

describe("nothing a batch does stalls the writer", () => {
  /**
   * Settles within the deadline, or says "hung" (the writer used to leave senders waiting forever).
   * The deadline only bounds a failure: generous, for a busy machine.
   */
  const within = <T>(p: Promise<T>, ms = 10_000): Promise<T | "hung"> => Promise.race([p, new Promise<"hung">((r) => setTimeout(() => r("hung"), ms))]);
  const tick = () => new Promise((r) => setTimeout(r, 1));

  type Failure = "none" | "commit rejects" | "commit throws" | "durable rejects" | "durable throws";
  const failures: Failure[] = ["none", "commit rejects", "commit throws", "durable rejects", "durable throws"];
  for (const durable of [false, true]) {
    for (const lanes of [1, 3]) {
      for (const failure of failures) {
        if (!durable && failure.startsWith("durable")) continue;
        test(`observers that throw, ${failure === "none" ? "no other failure" : `the first ${failure.replace(" ", " call ")}`}: every sender settles, later hooks commit, drain resolves (durable: ${durable}, lanes: ${lanes})`, async () => {
          const errors: string[] = [];
          const batches: string[][] = [];
          let open = 0;
          let mostOpen = 0;
          let syncs = 0;
          const w = createBatchWriter({
            batchMax: 2,
            lanes,
            log: { error: (message) => void errors.push(message) },
            async commit(batch) {
              const ids = batch.map((h) => h.id);
              const call = batches.push(ids);
              if (call === 1 && failure === "commit throws") throw new Error("constraint");
              mostOpen = Math.max(mostOpen, ++open);
              await tick();
              open--;
              if (call === 1 && failure === "commit rejects") throw new Error("connection lost");
              return () => {
                throw new Error(`observer of ${ids} broke`);
              };
            },
            durable: durable
              ? () => {
                  if (++syncs === 1 && failure === "durable throws") throw new Error("EBADF");
                  return syncs === 1 && failure === "durable rejects" ? Promise.reject(new Error("EIO")) : tick().then(() => {});
                }
              : undefined,
          });
          // Two waves: the second arrives while the first batch commits (a second lane starts when allowed).
          const first = ["a", "b", "c", "d", "e"].map((id) => w.write(hook(id)));
          await new Promise((r) => setImmediate(r));
          const second = ["f", "g", "h"].map((id) => w.write(hook(id)));
          const results = await within(Promise.allSettled([...first, ...second]));
          if (results === "hung") throw new Error("a sender was never answered");
          const ids = "abcdefgh".split("");
          const rejected = ids.filter((_, i) => results[i]!.status === "rejected");
          if (failure === "none") expect(rejected).toEqual([]);
          // Exactly the hooks of the batch that failed are refused; every other hook was answered.
          else expect(batches).toContainEqual(rejected);
          expect(mostOpen > 1).toBe(lanes > 1);
          // Every batch answered its senders logged its observer's error, once.
          expect(errors.length).toBe(batches.length - (failure === "none" ? 0 : 1));
          expect(await within(w.write(hook("later")).then(() => "stored"))).toBe("stored");
          expect(batches.at(-1)).toEqual(["later"]);
          expect(await within(w.drain().then(() => "drained"))).toBe("drained");
        }, 40_000);
      }
    }
  }
});

describe("WAL sync", () => {
  test("calls during a running sync share the next one, which starts after it", async () => {
    const { createWalSync } = await import("../../src/db/sqlite/wal-sync");
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
    const { createWalSync } = await import("../../src/db/sqlite/wal-sync");
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
