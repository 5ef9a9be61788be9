/** BulkJobStore's and ViewStore's contracts (src/bulk/store.ts, src/views/store.ts) on SQLite and PostgreSQL. */
import { afterEach, describe, expect, test } from "bun:test";
import type { BulkJobRow } from "../../../src/bulk/store";
import { createBulkJobStore } from "../../../src/db/stores/bulk-jobs";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { createViewStore } from "../../../src/db/stores/views";
import { closeBackends, contractBackends } from "./backends";

afterEach(closeBackends);

const job = (id: string, over: Partial<BulkJobRow> = {}): BulkJobRow => ({
  id,
  action: "retry",
  query: "status:failed channel:stripe",
  params: {},
  actor: "ada@example.com",
  state: "running",
  total: 10,
  done: 0,
  skipped: 0,
  failed: 0,
  until: "01kb0000000000000000000000",
  createdAt: 1000,
  finishedAt: null,
  message: "",
  leaseUntil: 5000,
  ...over,
});

for (const backend of contractBackends(
  (db) => ({ jobs: createBulkJobStore(sqliteDialect(db.$client)), views: createViewStore(sqliteDialect(db.$client)) }),
  (t) => ({ jobs: createBulkJobStore(pgDialect(t)), views: createViewStore(pgDialect(t)) }),
)) {
  describe(`bulk job store on ${backend.name}`, () => {
    test("create, get, list newest first and paged, progress, finish once", async () => {
      const { store } = await backend.open();
      const { jobs } = store;
      await jobs.create(job("01a", { params: { url: "https://example.com/x" } }));
      await jobs.create(job("01b"));
      expect(await jobs.get("01a")).toEqual(job("01a", { params: { url: "https://example.com/x" } }));
      expect(await jobs.get("none")).toBeUndefined();
      expect((await jobs.list({ limit: 10 })).map((j) => j.id)).toEqual(["01b", "01a"]);
      expect((await jobs.list({ before: "01b", limit: 10 })).map((j) => j.id)).toEqual(["01a"]);
      expect(await jobs.progress("01a", { done: 4, skipped: 1, failed: 0 }, 6000)).toBe("running");
      expect(await jobs.progress("none", { done: 4, skipped: 1, failed: 0 }, 6000)).toBeUndefined();
      const cancelled = await jobs.finish("01a", "cancelled", 2000, "cancelled by ada@example.com");
      expect(cancelled).toMatchObject({ state: "cancelled", done: 4, skipped: 1, finishedAt: 2000 });
      expect(await jobs.finish("01a", "done", 3000, "")).toBe("conflict");
      expect(await jobs.finish("none", "done", 3000, "")).toBeUndefined();
      // The runner's last batch still counts; the state stays cancelled.
      expect(await jobs.progress("01a", { done: 6, skipped: 1, failed: 0 }, 7000)).toBe("cancelled");
      expect(await jobs.get("01a")).toMatchObject({ state: "cancelled", done: 6, message: "cancelled by ada@example.com" });
    });

    test("a cancel and the job's end racing: one wins, seen by another instance", async () => {
      const { store, another } = await backend.open();
      const other = (await another()).jobs;
      await store.jobs.create(job("01c"));
      const results = await Promise.all([store.jobs.finish("01c", "done", 5, ""), other.finish("01c", "cancelled", 5, "cancelled")]);
      expect(results.filter((r) => r === "conflict")).toHaveLength(1);
      const state = results.find((r) => r !== "conflict") as BulkJobRow;
      expect((await other.get("01c"))?.state).toBe(state.state);
    });
  });

  describe(`bulk job leases on ${backend.name}`, () => {
    test("a job whose lease ran out (or that has none) is interrupted; one renewed, or ended, is left", async () => {
      const { store, another } = await backend.open();
      const { jobs } = store;
      await jobs.create(job("01d", { leaseUntil: 1000 }));
      await jobs.create(job("01e", { leaseUntil: 1000 }));
      await jobs.create(job("01f", { leaseUntil: null }));
      await jobs.create(job("01g", { leaseUntil: 1000, state: "done", finishedAt: 900 }));
      await jobs.renew("01e", 5000);
      await jobs.renew("01g", 5000);
      expect(await (await another()).jobs.interruptAbandoned(2000, "gone")).toBe(2);
      expect(await jobs.get("01d")).toMatchObject({ state: "interrupted", finishedAt: 2000, message: "gone" });
      expect(await jobs.get("01f")).toMatchObject({ state: "interrupted" });
      expect(await jobs.get("01e")).toMatchObject({ state: "running", leaseUntil: 5000 });
      expect(await jobs.get("01g")).toMatchObject({ state: "done", finishedAt: 900, leaseUntil: 1000 });
      // A runner still alive sees it at its next progress (and stops); its counts are kept.
      expect(await jobs.progress("01d", { done: 3, skipped: 0, failed: 0 }, 9000)).toBe("interrupted");
      expect(await jobs.get("01d")).toMatchObject({ state: "interrupted", done: 3, leaseUntil: 1000 });
      // A progress renews the lease of a running job.
      expect(await jobs.progress("01e", { done: 1, skipped: 0, failed: 0 }, 8000)).toBe("running");
      expect(await jobs.interruptAbandoned(7000, "gone")).toBe(0);
      // `all`: every running job, whatever its lease (SQLite at start: one process owns the file).
      expect(await jobs.interruptAbandoned(7000, "restarted", true)).toBe(1);
      expect(await jobs.get("01e")).toMatchObject({ state: "interrupted", message: "restarted" });
    });
  });

  describe(`view store on ${backend.name}`, () => {
    test("save, replace, list by owners (shared first per name), get, remove", async () => {
      const { store } = await backend.open();
      const { views } = store;
      const shared = { owner: "", name: "failed", query: "status:failed", createdBy: "admin@example.com", createdAt: 1, updatedAt: 1 };
      const own = { owner: "ada@example.com", name: "failed", query: "status:failed channel:a", createdBy: "ada@example.com", createdAt: 2, updatedAt: 2 };
      const other = { owner: "bob@example.com", name: "bob's", query: "tag:x", createdBy: "bob@example.com", createdAt: 3, updatedAt: 3 };
      expect(await views.save(shared)).toEqual(shared);
      await views.save(own);
      await views.save(other);
      expect(await views.list(["", "ada@example.com"])).toEqual([shared, own]);
      expect(await views.list(["bob@example.com"])).toEqual([other]);
      const replaced = await views.save({ ...shared, query: "status:failed -tag:ok", createdBy: "eve@example.com", createdAt: 9, updatedAt: 9 });
      expect(replaced).toEqual({ ...shared, query: "status:failed -tag:ok", updatedAt: 9 });
      expect(await views.get("", "failed")).toEqual(replaced);
      expect(await views.get("", "nope")).toBeUndefined();
      expect(await views.remove("ada@example.com", "failed")).toBe(true);
      expect(await views.remove("ada@example.com", "failed")).toBe(false);
      expect(await views.list(["", "ada@example.com"])).toEqual([replaced]);
    });
  });
}
