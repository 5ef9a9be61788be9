/** HookStore.getHookSummary on SQLite and PostgreSQL: the body's head for the list's preview, never the whole body. */
import { afterEach, describe, expect, test } from "bun:test";
import { createPgHookStore } from "../../../src/db/pg/hook-store";
import { bodyPreview, PREVIEW_BYTES } from "../../../src/hooks/preview";
import { createHookStore } from "../../../src/db/sqlite/hook-store";
import type { NewHook } from "../../../src/hooks/store";
import { closeBackends, contractBackends } from "./backends";

afterEach(closeBackends);

const hook = (n: number, body: Uint8Array): NewHook => ({
  id: `01jd00000000000000000000${String(n).padStart(2, "0")}`,
  channel: "c",
  method: "POST",
  query: "",
  headers: "{}",
  body,
  ip: "127.0.0.1",
  createdAt: 1000 + n,
  eventType: "",
});

for (const backend of contractBackends((db) => createHookStore(db), createPgHookStore)) {
  describe(`summaries on ${backend.name}`, () => {
    test("a summary carries the body's first bytes (the preview's source) and its size", async () => {
      const { store, transaction } = await backend.open();
      const big = new TextEncoder().encode(`{"note":"${"ü".repeat(5000)}"}`);
      const rows = [
        hook(1, new TextEncoder().encode('{\n "order": "ord_1"\n}')),
        hook(2, big),
        hook(3, new Uint8Array([0, 1, 2, 255])),
        hook(4, new Uint8Array(0)),
      ];
      await transaction(() => store.insertHooks(rows, () => []));
      const s = await Promise.all(rows.map((r) => store.getHookSummary(r.id)));
      expect(s.map((r) => r!.size)).toEqual(rows.map((r) => r.body.byteLength));
      expect(new Uint8Array(s[1]!.head)).toEqual(big.subarray(0, PREVIEW_BYTES));
      expect(s.map((r) => bodyPreview(r!.head))).toEqual(['{ "order": "ord_1" }', `{"note":"${"ü".repeat(91)}`, "", ""]);
    });
  });
}
