/** IssueStore's contract (src/alerts/store.ts) on SQLite and PostgreSQL, with racing transitions of one issue. */
import { afterEach, describe, expect, test } from "bun:test";
import type { IssueRow } from "../../../src/alerts/store";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { createIssueStore } from "../../../src/db/stores/issues";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

const issue = (id: string, over: Partial<IssueRow> = {}): IssueRow => ({
  id,
  rule: "quiet",
  kind: "silence",
  scope: "stripe",
  summary: "no hook on stripe for 30m",
  state: "open",
  openedAt: 1000,
  lastSeenAt: 1000,
  resolvedAt: null,
  count: 1,
  hooksQuery: "channel=stripe",
  notifiedAt: 1000,
  history: [{ at: 1000, action: "opened", by: "mailroom" }],
  ...over,
});

for (const backend of contractBackends(
  (db) => createIssueStore(sqliteDialect(db.$client)),
  (t) => createIssueStore(pgDialect(t)),
)) {
  describe(`issue store on ${backend.name}`, () => {
    test("open, get, active, seen, notified; list newest first, by state, paged; countOpen", async () => {
      const { store } = await backend.open();
      expect(await store.list({ limit: 10 })).toEqual([]);
      await store.open(issue("01a"));
      await store.open(issue("01b", { scope: "github", hooksQuery: null }));
      await store.open(issue("01c", { scope: "shop", state: "resolved", resolvedAt: 2000 }));
      expect(await store.get("01a")).toEqual(issue("01a"));
      expect(await store.get("none")).toBeUndefined();
      expect((await store.active("quiet", "stripe"))?.id).toBe("01a");
      expect(await store.active("quiet", "shop")).toBeUndefined();
      expect(await store.seen("01a", 5000, 3, "again")).toBe(true);
      expect(await store.seen("01c", 5000, 3, "again")).toBe(false);
      expect(await store.notified("01a", 6000)).toBe(true);
      expect(await store.get("01a")).toMatchObject({ lastSeenAt: 5000, count: 3, summary: "again", notifiedAt: 6000 });
      expect((await store.list({ limit: 10 })).map((i) => i.id)).toEqual(["01c", "01b", "01a"]);
      expect((await store.list({ limit: 1, before: "01c" })).map((i) => i.id)).toEqual(["01b"]);
      expect((await store.list({ state: "resolved", limit: 10 })).map((i) => i.id)).toEqual(["01c"]);
      expect((await store.unresolved()).map((i) => i.id)).toEqual(["01a", "01b"]);
      expect(await store.countOpen()).toBe(2);
    });

    test("transition moves from the allowed states only and keeps who did what", async () => {
      const { store } = await backend.open();
      await store.open(issue("01a"));
      const acked = await store.transition("01a", ["open"], "acknowledged", { at: 2000, action: "acknowledged", by: "api:ops" });
      expect(acked).toMatchObject({ state: "acknowledged", resolvedAt: null });
      // Reminders are for open issues only: one acknowledged (or resolved) meanwhile is not reminded of.
      expect(await store.notified("01a", 2200)).toBe(false);
      expect((await store.get("01a"))?.notifiedAt).toBe(1000);
      expect(await store.transition("01a", ["open"], "acknowledged", { at: 2500, action: "acknowledged", by: "api:ops" })).toBe("conflict");
      expect(await store.transition("none", ["open"], "resolved", { at: 2500, action: "resolved", by: "api:ops" })).toBeUndefined();
      await store.transition("01a", ["open", "acknowledged"], "resolved", { at: 3000, action: "resolved", by: "ann@example.com" });
      expect(await store.get("01a")).toMatchObject({
        state: "resolved",
        resolvedAt: 3000,
        history: [
          { at: 1000, action: "opened", by: "mailroom" },
          { at: 2000, action: "acknowledged", by: "api:ops" },
          { at: 3000, action: "resolved", by: "ann@example.com" },
        ],
      });
      expect(await store.countOpen()).toBe(0);
    });

    test("racing resolves of one issue on two instances: one wins, the others conflict", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      await store.open(issue("01a"));
      const { values: results, errors } = await race(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? store : other).transition("01a", ["open"], "resolved", { at: 2000 + i, action: "resolved", by: `u${i}` })),
      );
      expect(errors).toEqual([]);
      expect(results.filter((r) => r === "conflict")).toHaveLength(5);
      expect((await store.get("01a"))?.history).toHaveLength(2);
    });
  });
}
