/** ContractStore's contract (src/contracts/store.ts) on SQLite and PostgreSQL, with racing first sightings. */
import { afterEach, describe, expect, test } from "bun:test";
import type { ContractRecord } from "../../../src/contracts/store";
import { createContractStore } from "../../../src/db/stores/contracts";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

const record = (hookId: string, over: Partial<ContractRecord> = {}): ContractRecord => ({
  hookId,
  channel: "gh",
  result: "valid",
  violations: [],
  newType: false,
  newField: false,
  checkedAt: 1000,
  ...over,
});

for (const backend of contractBackends(
  (db) => createContractStore(sqliteDialect(db.$client)),
  (t) => createContractStore(pgDialect(t)),
)) {
  describe(`contract store on ${backend.name}`, () => {
    /** Hooks rows the checks point at (hook_contracts keeps only checks of hooks that exist). */
    async function hooks(b: { query(text: string): Promise<unknown> }, ...ids: string[]) {
      for (const id of ids) {
        await b.query(
          `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at) VALUES ('${id}', 'gh', 'pending', 'POST', '', '{}', '', '127.0.0.1', 1)`,
        );
      }
    }

    test("record keeps the checks of existing hooks once; of and idsWhere read them back, newest first", async () => {
      const b = await backend.open();
      await hooks(b, "01a", "01b", "01c");
      const invalid = record("01b", {
        result: "invalid",
        violations: [{ path: "/issue/user", message: "must have required property 'user'" }],
        newField: true,
      });
      await b.store.record([record("01a", { newType: true }), invalid, record("01c", { channel: "shop", result: "none" }), record("01z")]);
      // A second check of a hook is ignored: the first is kept.
      await b.store.record([record("01a", { result: "invalid" })]);
      const got = await b.store.of(["01a", "01b", "01z", "none"]);
      expect([...got.keys()].sort()).toEqual(["01a", "01b"]);
      expect(got.get("01a")).toEqual(record("01a", { newType: true }));
      expect(got.get("01b")).toEqual(invalid);
      expect(await b.store.of([])).toEqual(new Map());
      expect(await b.store.idsWhere({}, 10)).toEqual(["01c", "01b", "01a"]);
      expect(await b.store.idsWhere({ result: "invalid" }, 10)).toEqual(["01b"]);
      expect(await b.store.idsWhere({ newType: true }, 10)).toEqual(["01a"]);
      expect(await b.store.idsWhere({ newField: true }, 10)).toEqual(["01b"]);
      expect(await b.store.idsWhere({ channel: "shop" }, 10)).toEqual(["01c"]);
      expect(await b.store.idsWhere({}, 1)).toEqual(["01c"]);
    });

    test("a deleted hook takes its check with it", async () => {
      const b = await backend.open();
      await hooks(b, "01a");
      await b.store.record([record("01a")]);
      await b.query(`DELETE FROM hooks WHERE id = '01a'`);
      expect(await b.store.of(["01a"])).toEqual(new Map());
    });

    test("claimSeen answers the paths this call saw first; racing instances each win a path once", async () => {
      const b = await backend.open();
      expect((await b.store.claimSeen("gh", "push", ["", "/ref", "/after"], "01a")).sort()).toEqual(["", "/after", "/ref"]);
      expect(await b.store.claimSeen("gh", "push", ["", "/ref", "/new"], "01b")).toEqual(["/new"]);
      // Another channel or event type has seen nothing yet.
      expect((await b.store.claimSeen("shop", "push", ["", "/ref"], "01c")).sort()).toEqual(["", "/ref"]);
      expect(await b.store.claimSeen("gh", "issues", [""], "01d")).toEqual([""]);

      const other = await b.another();
      const paths = Array.from({ length: 50 }, (_, i) => `/p${i}`);
      const { values, errors } = await race([
        b.store.claimSeen("gh", "race", ["", ...paths], "01e"),
        other.claimSeen("gh", "race", ["", ...paths], "01f"),
        other.claimSeen("gh", "race", ["", ...paths], "01g"),
      ]);
      expect(errors).toEqual([]);
      const won = values.flat();
      // Every path won exactly once among the racers.
      expect(won.sort()).toEqual(["", ...paths].sort());
    });
  });
}
