/**
 * TransferStore's contract (src/transfer/store.ts: import and send-as-new-hook) on SQLite and
 * PostgreSQL: hooks stored whole with their ids, events and counts; an id taken is skipped; two
 * importers of one export at once, on two instances, store each hook once.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createPgTransferStore } from "../../../src/db/pg/transfer-store";
import { sqliteTransactor } from "../../../src/db/transactor";
import { createTransferStore } from "../../../src/db/sqlite/transfer-store";
import type { TransferHook } from "../../../src/transfer/store";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

const ID = (n: number) => `01jd00000000000000000000${String(n).padStart(2, "0")}`;
const hook = (n: number, over: Partial<TransferHook> = {}): TransferHook => ({
  id: ID(n),
  channel: n % 2 ? "odd" : "even",
  status: n % 3 === 0 ? "handled" : "pending",
  method: "POST",
  query: `n=${n}`,
  headers: { "content-type": "application/octet-stream" },
  body: new Uint8Array([0, 255, n, 13, 10]),
  ip: "192.0.2.1",
  createdAt: 1000 + n,
  finalizedAt: n % 3 === 0 ? 2000 + n : null,
  eventType: n % 2 ? "push" : "",
  sourceId: null,
  events: [{ hookId: ID(n), kind: "caught", actor: "system", message: `caught ${n}`, createdAt: 1000 + n }],
  ...over,
});

type Pair = { store: ReturnType<typeof createTransferStore>; transaction<T>(fn: () => Promise<T>): Promise<T> };
const pairs = contractBackends<Pair>(
  (db) => ({ store: createTransferStore(db), transaction: sqliteTransactor(db.$client).transaction }),
  (t) => ({ store: createPgTransferStore(t, 4), transaction: t.transaction }),
);

/** Per channel and status, how many hooks the channel's counters say (channels on SQLite, channel_counts' slots on PostgreSQL). */
async function counts(backend: { name: string; query(text: string): Promise<Record<string, unknown>[]> }) {
  const rows =
    backend.name === "sqlite"
      ? await backend.query("SELECT name AS channel, pending, handled FROM channels ORDER BY name")
      : await backend.query("SELECT channel, sum(pending)::int AS pending, sum(handled)::int AS handled FROM channel_counts GROUP BY channel ORDER BY channel");
  return rows.map((r) => `${r.channel} pending=${Number(r.pending)} handled=${Number(r.handled)}`);
}

for (const backend of pairs) {
  describe(`transfer store on ${backend.name}`, () => {
    test("imports hooks whole: ids, bytes, times, events and counts; an id taken is skipped", async () => {
      const b = await backend.open();
      const { store, transaction } = b.store;
      const stored = await transaction(() => store.importHooks([hook(1), hook(2), hook(3)], (c) => (c === "odd" ? ["sig"] : [])));
      expect(stored).toEqual([ID(1), ID(2), ID(3)]);
      // Again, with one new: only the new one is stored; the others keep what they had.
      const again = await transaction(() => store.importHooks([hook(1, { query: "changed" }), hook(4)], () => []));
      expect(again).toEqual([ID(4)]);
      const rows = await b.query("SELECT id, channel, status, query, body, finalized_at FROM hooks ORDER BY id");
      expect(
        rows.map((r) => [
          r.id,
          r.channel,
          r.status,
          r.query,
          [...new Uint8Array(r.body as Uint8Array)],
          r.finalized_at === null ? null : Number(r.finalized_at),
        ]),
      ).toEqual([1, 2, 3, 4].map((n) => [ID(n), hook(n).channel, hook(n).status, `n=${n}`, [0, 255, n, 13, 10], hook(n).finalizedAt]));
      expect((await b.query("SELECT hook_id, message FROM events ORDER BY hook_id")).map((r) => `${r.hook_id} ${r.message}`)).toEqual(
        [1, 2, 3, 4].map((n) => `${ID(n)} caught ${n}`),
      );
      // A new channel gets the guards asked for; its counters count what was stored, once.
      expect((await b.query("SELECT name, guards FROM channels ORDER BY name")).map((r) => `${r.name} ${r.guards}`)).toEqual(["even []", 'odd ["sig"]']);
      expect(await counts(b)).toEqual(["even pending=2 handled=0", "odd pending=1 handled=1"]);
    });

    test("two importers of one export at once, on two instances, in either order: each hook stored once, counted once", async () => {
      const b = await backend.open();
      const other = await b.another();
      const all = Array.from({ length: 30 }, (_, i) => hook(i + 1));
      const work = [b.store, other, b.store, other].map((p, i) => {
        const rows = i % 2 ? [...all].reverse() : all;
        return p.transaction(() => p.store.importHooks(rows, () => []));
      });
      const { values, errors } = await race(work);
      expect(errors).toEqual([]);
      expect(values.flat().sort()).toEqual(all.map((h) => h.id));
      expect(Number((await b.query("SELECT count(*) AS n FROM hooks"))[0]!.n)).toBe(30);
      expect(Number((await b.query("SELECT count(*) AS n FROM events"))[0]!.n)).toBe(30);
      expect(await counts(b)).toEqual(["even pending=10 handled=5", "odd pending=10 handled=5"]);
    });
  });
}
