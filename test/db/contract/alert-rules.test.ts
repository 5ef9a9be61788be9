/** AlertRuleStore's contract (src/alerts/rule-store.ts) on SQLite and PostgreSQL, with racing creates of one name. */
import { afterEach, describe, expect, test } from "bun:test";
import type { AlertRuleRow } from "../../../src/alerts/rule-store";
import { createAlertRuleStore } from "../../../src/db/stores/alert-rules";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import type { Change } from "../../../src/hooks/changes";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

const row = (name: string, over: Partial<AlertRuleRow> = {}): AlertRuleRow => ({
  name,
  rule: JSON.stringify({ name, kind: "silence", for: "30m" }),
  createdBy: "ann@example.com",
  createdAt: 1000,
  updatedBy: "ann@example.com",
  updatedAt: 1000,
  ...over,
});

for (const backend of contractBackends(
  (db) => createAlertRuleStore(sqliteDialect(db.$client)),
  (t) => createAlertRuleStore(pgDialect(t)),
)) {
  describe(`alert rule store on ${backend.name}`, () => {
    test("create, get, list by name, update, remove; each write reported once committed", async () => {
      const { store, changes } = await backend.open();
      const seen: Change[] = [];
      changes.subscribe((c) => void seen.push(c));
      expect(await store.list()).toEqual([]);
      expect(await store.create(row("zeta"))).toBe(true);
      expect(await store.create(row("alpha", { createdBy: "api:ops" }))).toBe(true);
      expect(await store.create(row("alpha"))).toBe(false);
      expect(await store.get("alpha")).toEqual(row("alpha", { createdBy: "api:ops" }));
      expect(await store.get("none")).toBeUndefined();
      expect((await store.list()).map((r) => r.name)).toEqual(["alpha", "zeta"]);
      const rule = JSON.stringify({ name: "zeta", kind: "rate", threshold: 5, window: "1m" });
      expect(await store.update("zeta", rule, "bob@example.com", 5000)).toEqual(row("zeta", { rule, updatedBy: "bob@example.com", updatedAt: 5000 }));
      expect(await store.update("none", rule, "bob@example.com", 5000)).toBeUndefined();
      expect(await store.remove("zeta")).toBe(true);
      expect(await store.remove("zeta")).toBe(false);
      expect((await store.list()).map((r) => r.name)).toEqual(["alpha"]);
      // Two creates, one update, one remove changed something; the refused ones did not.
      expect(seen).toEqual(Array.from({ length: 4 }, () => ({ kind: "state", part: "alert_rules" })));
    });

    test("racing creates of one name on two instances: one wins, the others are told it exists", async () => {
      const { store, another } = await backend.open();
      const other = await another();
      const { values, errors } = await race(Array.from({ length: 6 }, (_, i) => (i % 2 ? store : other).create(row("quiet", { createdBy: `u${i}` }))));
      expect(errors).toEqual([]);
      expect(values.filter((v) => v)).toHaveLength(1);
      expect(await store.list()).toHaveLength(1);
    });
  });
}
