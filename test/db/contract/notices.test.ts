/**
 * NoticeStore's contract (src/notify/store.ts, the notifiers' outbox) on SQLite and PostgreSQL:
 * queueing in the caller's transaction, the per-notifier limit, claims and outcomes as
 * compare-and-sets, and two instances claiming one due notice: one sends it.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { createNoticeStore } from "../../../src/db/stores/notices";
import type { IssueNotice } from "../../../src/notify/notice";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

const notice = (id: string, event: IssueNotice["event"] = "opened"): IssueNotice => ({
  event,
  issue: {
    id,
    rule: "quiet",
    kind: "silence",
    scope: "stripe",
    summary: "no hook on stripe for 30m <b>",
    state: "open",
    opened_at: "2026-11-28T10:00:00.000Z",
    last_seen_at: "2026-11-28T10:00:00.000Z",
    resolved_at: null,
    count: 1,
    hooks_query: null,
  },
  url: null,
});

for (const backend of contractBackends(
  (db) => createNoticeStore(sqliteDialect(db.$client)),
  (t) => createNoticeStore(pgDialect(t)),
)) {
  describe(`notice store on ${backend.name}`, () => {
    test("add queues per notifier in order; next is each notifier's oldest; counts read the queue", async () => {
      const { store } = await backend.open();
      expect(await store.next("ops")).toBeUndefined();
      expect(await store.counts()).toEqual(new Map());
      expect(
        await store.add(
          [
            { id: "01a", notifier: "ops", notice: notice("i1"), at: 1000 },
            { id: "01b", notifier: "mail", notice: notice("i1"), at: 1000 },
          ],
          10,
        ),
      ).toEqual([]);
      await store.add([{ id: "01c", notifier: "ops", notice: notice("i1", "resolved"), at: 2000 }], 10);
      expect(await store.next("ops")).toEqual({
        id: "01a",
        notifier: "ops",
        notice: notice("i1"),
        state: "queued",
        attempts: 0,
        nextAttemptAt: 1000,
        lastError: null,
        createdAt: 1000,
        doneAt: null,
      });
      expect((await store.next("mail"))?.id).toBe("01b");
      expect(await store.counts()).toEqual(
        new Map([
          ["ops", { queued: 2, sent: 0, failed: 0, lastError: null, lastErrorAt: null }],
          ["mail", { queued: 1, sent: 0, failed: 0, lastError: null, lastErrorAt: null }],
        ]),
      );
    });

    test("add joins the caller's transaction: rolled back with it, nothing is queued", async () => {
      const { store, transaction } = await backend.open();
      const failing = transaction(async () => {
        await store.add([{ id: "01a", notifier: "ops", notice: notice("i1"), at: 1000 }], 10);
        throw new Error("the issue could not be written");
      });
      await expect(failing).rejects.toThrow("the issue could not be written");
      expect(await store.next("ops")).toBeUndefined();
    });

    test("claim, fail with a retry, claim again when due, send: counted once, the last error kept", async () => {
      const { store, query } = await backend.open();
      await store.add([{ id: "01a", notifier: "ops", notice: notice("i1"), at: 1000 }], 10);
      // Not due before its time; a stale attempt count claims nothing.
      expect(await store.claim("01a", 0, 999, 61_000)).toBe(false);
      expect(await store.claim("01a", 1, 1000, 61_000)).toBe(false);
      expect(await store.claim("01a", 0, 1000, 61_000)).toBe(true);
      // Claimed: due again only when the claim ends (its instance stopped mid-send).
      expect(await store.next("ops")).toMatchObject({ attempts: 1, nextAttemptAt: 61_000 });
      expect(await store.claim("01a", 0, 1000, 61_000)).toBe(false);
      expect(await store.failed("01a", 1, "HTTP 500", 1500, 2500)).toBe(true);
      expect(await store.next("ops")).toMatchObject({ state: "queued", attempts: 1, nextAttemptAt: 2500, lastError: "HTTP 500" });
      expect((await store.counts()).get("ops")).toEqual({ queued: 1, sent: 0, failed: 0, lastError: "HTTP 500", lastErrorAt: 1500 });
      // A report of an attempt that is not the notice's last claim changes nothing.
      expect(await store.sent("01a", 2, 2000)).toBe(false);
      expect(await store.claim("01a", 1, 2500, 62_500)).toBe(true);
      expect(await store.sent("01a", 2, 3000)).toBe(true);
      expect(await store.sent("01a", 2, 3000)).toBe(false);
      expect(await store.next("ops")).toBeUndefined();
      expect((await store.counts()).get("ops")).toEqual({ queued: 0, sent: 1, failed: 0, lastError: "HTTP 500", lastErrorAt: 1500 });
      expect((await query("SELECT state, attempts, done_at FROM notices")).map((r) => [r.state, r.attempts, Number(r.done_at)])).toEqual([["sent", 2, 3000]]);
    });

    test("given up: failed with no retry, counted, the next notice comes up; prune removes done notices only", async () => {
      const { store } = await backend.open();
      await store.add([{ id: "01a", notifier: "ops", notice: notice("i1"), at: 1000 }], 10);
      await store.add([{ id: "01b", notifier: "ops", notice: notice("i1", "resolved"), at: 1000 }], 10);
      expect(await store.claim("01a", 0, 1000, 61_000)).toBe(true);
      expect(await store.failed("01a", 1, "HTTP 502", 2000, null)).toBe(true);
      expect(await store.failed("01a", 1, "HTTP 502", 2000, null)).toBe(false);
      expect((await store.next("ops"))?.id).toBe("01b");
      expect((await store.counts()).get("ops")).toMatchObject({ queued: 1, failed: 1, lastError: "HTTP 502", lastErrorAt: 2000 });
      await store.lastError("ops", "a test failed", 2500);
      expect((await store.counts()).get("ops")).toMatchObject({ queued: 1, sent: 0, failed: 1, lastError: "a test failed", lastErrorAt: 2500 });
      expect(await store.prune(2000)).toBe(0);
      expect(await store.prune(2001)).toBe(1);
      expect((await store.next("ops"))?.id).toBe("01b");
      // The counts outlive the pruned rows.
      expect((await store.counts()).get("ops")).toMatchObject({ failed: 1 });
    });

    test("a full notifier drops its oldest untried notice; the one under way stays", async () => {
      const { store, query } = await backend.open();
      await store.add([{ id: "01a", notifier: "ops", notice: notice("i1"), at: 1000 }], 3);
      await store.add([{ id: "01b", notifier: "ops", notice: notice("i2"), at: 1000 }], 3);
      expect(await store.claim("01a", 0, 1000, 61_000)).toBe(true);
      await store.add([{ id: "01c", notifier: "ops", notice: notice("i3"), at: 1000 }], 3);
      expect(
        await store.add(
          [
            { id: "01d", notifier: "ops", notice: notice("i4"), at: 1000 },
            { id: "01e", notifier: "mail", notice: notice("i4"), at: 1000 },
          ],
          3,
        ),
      ).toEqual([{ id: "01b", notifier: "ops" }]);
      expect(await query("SELECT id FROM notices WHERE notifier = 'ops' ORDER BY id")).toEqual([{ id: "01a" }, { id: "01c" }, { id: "01d" }]);
      expect((await store.counts()).get("ops")?.queued).toBe(3);
    });

    test("two instances claim the same due notice at once: one wins, it is sent once", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      await store.add([{ id: "01a", notifier: "ops", notice: notice("i1"), at: 1000 }], 10);
      const stores = [store, other, store, other, store, other];
      const { values, errors } = await race(stores.map(async (s) => ((await s.next("ops"))?.attempts === 0 ? s.claim("01a", 0, 1000, 61_000) : false)));
      expect(errors).toEqual([]);
      expect(values.filter(Boolean)).toHaveLength(1);
      // Each reports as if it had sent it: only the claim's attempt counts.
      const reports = await race(stores.map((s) => s.sent("01a", 1, 2000)));
      expect(reports.values.filter(Boolean)).toHaveLength(1);
      expect((await other.counts()).get("ops")).toMatchObject({ queued: 0, sent: 1 });
    });

    test("two instances queueing for one notifier at once keep its limit", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      const { errors } = await race(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 ? store : other).add([{ id: `01${String.fromCharCode(97 + i)}`, notifier: "ops", notice: notice(`i${i}`), at: 1000 }], 4),
        ),
      );
      expect(errors).toEqual([]);
      expect((await store.counts()).get("ops")?.queued).toBe(4);
    });

    test("two instances queueing for the same notifiers named in other orders never deadlock", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      const pair = (i: number, first: string, second: string) => [
        { id: `02${i}a`, notifier: first, notice: notice(`p${i}`), at: 1000 },
        { id: `02${i}b`, notifier: second, notice: notice(`p${i}`), at: 1000 },
      ];
      const { errors } = await race(
        Array.from({ length: 16 }, (_, i) => (i % 2 ? store.add(pair(i, "slack", "mail"), 100) : other.add(pair(i, "mail", "slack"), 100))),
      );
      expect(errors).toEqual([]);
      const counts = await store.counts();
      expect([counts.get("slack")?.queued, counts.get("mail")?.queued]).toEqual([16, 16]);
    });
  });
}
