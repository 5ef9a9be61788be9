import type { DeliveryIds } from "../stores/dedup";
import type { PgTransactor } from "./transactor";

/**
 * PostgreSQL's delivery ids and claims (db/stores/dedup.ts says why they are the backend's own).
 * A claim is the `deliveries` row itself, inserted pending (its hook_id the claim's token) by one
 * statement: of several instances claiming one delivery id at once, the unique key lets exactly
 * one insert it; `record` (in the hook's batch, one statement through unnest) makes it the hook's,
 * so nobody reads the hook's id before the hook is committed.
 */
export function pgDeliveryIds(t: PgTransactor): DeliveryIds {
  const x = () => t.exec();
  return {
    async claim(row, windowStart, staleBefore) {
      for (;;) {
        // Takes the row when there is none, when its hook is older than the window, or when its
        // claim went stale; a concurrent insert of the same key waits for the other's commit.
        const [won] = await x().unsafe(
          `INSERT INTO deliveries (channel, delivery_id, hook_id, pending, created_at) VALUES ($1, $2, $3, true, $4)
           ON CONFLICT (channel, delivery_id) DO UPDATE SET hook_id = excluded.hook_id, pending = true, created_at = excluded.created_at
           WHERE (NOT deliveries.pending AND deliveries.created_at < $5) OR (deliveries.pending AND deliveries.created_at < $6)
           RETURNING 1`,
          [row.channel, row.deliveryId, row.hookId, row.createdAt, windowStart, staleBefore],
        );
        if (won) return { claimed: true };
        const [r] = (await x().unsafe(`SELECT hook_id AS "hookId", pending FROM deliveries WHERE channel = $1 AND delivery_id = $2`, [
          row.channel,
          row.deliveryId,
        ])) as { hookId: string; pending: boolean }[];
        // Gone between the two statements (released, swept): claim again.
        if (!r) continue;
        return r.pending ? { pending: true } : { hookId: r.hookId };
      }
    },
    async record(rows) {
      if (rows.length === 0) return;
      // One statement per batch; the last of a delivery id repeated within the batch wins.
      const last = new Map(rows.map((r) => [`${r.channel}\n${r.deliveryId}`, r]));
      const kept = [...last.values()];
      await t.write(
        `INSERT INTO deliveries (channel, delivery_id, hook_id, created_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
         ON CONFLICT (channel, delivery_id) DO UPDATE SET hook_id = excluded.hook_id, pending = false, created_at = excluded.created_at`,
        [kept.map((r) => r.channel), kept.map((r) => r.deliveryId), kept.map((r) => r.hookId), kept.map((r) => r.createdAt)],
      );
    },
    async release(channel, deliveryId, token, stored) {
      // A stored hook's batch ended the claim already (record); only a claim left unstored is deleted.
      if (stored) return true;
      return (
        (await x().unsafe("DELETE FROM deliveries WHERE channel = $1 AND delivery_id = $2 AND hook_id = $3 AND pending", [channel, deliveryId, token])).count >
        0
      );
    },
    async channels() {
      return ((await x().unsafe("SELECT DISTINCT channel FROM deliveries")) as { channel: string }[]).map((r) => r.channel);
    },
    async sweep(channel, before, limit) {
      return (
        await x().unsafe(
          `DELETE FROM deliveries WHERE (channel, delivery_id) IN (
           SELECT channel, delivery_id FROM deliveries WHERE channel = $1 AND created_at < $2 LIMIT $3)`,
          [channel, before, limit],
        )
      ).count;
    },
    async forget(channel) {
      await x().unsafe("DELETE FROM deliveries WHERE channel = $1", [channel]);
    },
  };
}
