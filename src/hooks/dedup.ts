import type { Database } from "bun:sqlite";
import type { Config } from "../config/schema";
import type { Db } from "../db/open";
import type { Clock } from "../lib/clock";
import { toRfc3339 } from "../lib/clock";
import { parseDuration } from "../lib/units";
import { restAfter } from "../lib/pace";
import type { Worker } from "../runner/types";
import type { NewHook } from "./store";

/**
 * Deduplication by the provider's delivery id, per channel (`dedup = { window, header }` in the
 * config; off unless set). A hook whose delivery id the channel stored within the window is
 * answered 200 with the first hook's id and not stored again; the channel's `dropped` counter
 * counts it.
 *
 * Delivery ids: the configured header only, or else the first of X-GitHub-Delivery, webhook-id,
 * svix-id, X-Shopify-Webhook-Id, and the `id` of a Stripe event (a JSON body with a
 * Stripe-Signature header). Each is namespaced by provider, so ids of two providers never meet.
 *
 * The `deliveries` row is written in the hook's own transaction (restart-safe); the lookup is one
 * point query on its primary key. Requests with the same id in flight at once wait for the first:
 * only one is stored, the others get its id.
 */
export type DedupView = {
  channel: string;
  enabled: boolean;
  window?: string;
  header?: string;
  dropped: string;
  last_dropped_at: string | null;
};

/** Sweeps run this often; each deletes in slices of SWEEP_BATCH rows. */
export const DEDUP_SWEEP_MS = 60_000;
const SWEEP_BATCH = 500;
/** Longer ids are not deduplicated (no provider sends one). */
export const MAX_DELIVERY_ID = 256;

type Setting = { windowMs: number; window: string; header?: string };
type Claim = { first: string } | { settle(id: string | undefined): void };

const AUTO_HEADERS: [string, string][] = [
  ["x-github-delivery", "github"],
  ["webhook-id", "svix"],
  ["svix-id", "svix"],
  ["x-shopify-webhook-id", "shopify"],
];

export function createDedup(deps: { config: Config; db: Db; clock: Clock }) {
  const { config, clock } = deps;
  const sql: Database = deps.db.$client;
  const settings = new Map<string, Setting>();
  for (const c of config.channels) {
    if (c.dedup) settings.set(c.name, { windowMs: parseDuration(c.dedup.window)!, window: c.dedup.window, header: c.dedup.header?.toLowerCase() });
  }
  const lookup = sql.prepare("SELECT hook_id AS hookId, created_at AS createdAt FROM deliveries WHERE channel = ? AND delivery_id = ?");
  const remember = sql.prepare(
    "INSERT INTO deliveries (channel, delivery_id, hook_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (channel, delivery_id) DO UPDATE SET hook_id = excluded.hook_id, created_at = excluded.created_at",
  );
  const count = sql.prepare(
    "INSERT INTO dedup_stats (channel, dropped, last_dropped_at) VALUES (?, 1, ?) ON CONFLICT (channel) DO UPDATE SET dropped = dropped + 1, last_dropped_at = excluded.last_dropped_at",
  );
  const statsOf = sql.prepare("SELECT dropped, last_dropped_at AS lastDroppedAt FROM dedup_stats WHERE channel = ?");
  const sweepSlice = sql.prepare(
    "DELETE FROM deliveries WHERE rowid IN (SELECT rowid FROM deliveries WHERE channel = ? AND created_at < ? LIMIT ?)",
  );
  const synchronous = (sql.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous;
  /** Delivery ids being stored right now, by channel and id: what their hook's id turned out to be. */
  const inflight = new Map<string, Promise<string | undefined>>();

  /** The delivery id of a request to a deduplicating channel, namespaced; undefined when none. */
  function keyOf(channel: string, headers: Headers, body: Uint8Array): string | undefined {
    const s = settings.get(channel);
    if (!s) return undefined;
    let key: string | undefined;
    if (s.header !== undefined) {
      const v = headers.get(s.header);
      key = v ? `${s.header}:${v}` : undefined;
    } else {
      for (const [name, provider] of AUTO_HEADERS) {
        const v = headers.get(name);
        if (v) {
          key = `${provider}:${v}`;
          break;
        }
      }
      if (key === undefined && headers.has("stripe-signature")) key = stripeEventId(body);
    }
    return key !== undefined && key.length <= MAX_DELIVERY_ID ? key : undefined;
  }

  /**
   * Either the first hook of this delivery (a repeat within the window; counted as dropped), or a
   * claim whose settle() the caller calls with the stored hook's id (undefined if storing failed).
   */
  async function claim(channel: string, key: string): Promise<Claim> {
    const k = `${channel}\n${key}`;
    for (;;) {
      const running = inflight.get(k);
      if (running) {
        const id = await running;
        if (id === undefined) continue;
        drop(channel);
        return { first: id };
      }
      const row = lookup.get(channel, key) as { hookId: string; createdAt: number } | null;
      if (row && row.createdAt >= clock.now() - settings.get(channel)!.windowMs) {
        drop(channel);
        return { first: row.hookId };
      }
      let settle!: (id: string | undefined) => void;
      inflight.set(k, new Promise<string | undefined>((resolve) => (settle = resolve)));
      return {
        settle(id) {
          inflight.delete(k);
          settle(id);
        },
      };
    }
  }

  /** Counted without waiting for the disk: a lost count after a power cut is no harm. */
  function drop(channel: string): void {
    if (synchronous > 1) sql.run("PRAGMA synchronous = NORMAL");
    try {
      count.run(channel, clock.now());
    } finally {
      if (synchronous > 1) sql.run(`PRAGMA synchronous = ${synchronous}`);
    }
  }

  /** In the batch's transaction: remembers the delivery ids of the hooks stored. */
  function record(batch: readonly NewHook[]): void {
    for (const h of batch) if (h.deliveryId !== undefined) remember.run(h.channel, h.deliveryId, h.id, h.createdAt);
  }

  function view(channel: string): DedupView {
    const s = settings.get(channel);
    const stats = statsOf.get(channel) as { dropped: number; lastDroppedAt: number | null } | null;
    return {
      channel,
      enabled: s !== undefined,
      ...(s ? { window: s.window, ...(s.header ? { header: s.header } : {}) } : {}),
      dropped: String(stats?.dropped ?? 0),
      last_dropped_at: stats?.lastDroppedAt == null ? null : toRfc3339(stats.lastDroppedAt),
    };
  }

  /** Deletes old delivery ids in slices, resting between them; a channel without dedup keeps none. */
  async function sweep(now: number): Promise<void> {
    const channels = (sql.query("SELECT DISTINCT channel FROM deliveries").values() as [string][]).map(([c]) => c);
    for (const channel of channels) {
      const s = settings.get(channel);
      const cutoff = s ? now - s.windowMs : Number.MAX_SAFE_INTEGER;
      for (;;) {
        const startedAt = performance.now();
        if (sweepSlice.run(channel, cutoff, SWEEP_BATCH).changes < SWEEP_BATCH) break;
        await restAfter(startedAt);
      }
    }
  }

  let nextSweep = 0;
  const worker: Worker = {
    name: "dedup",
    async tick(now) {
      if (now < nextSweep) return nextSweep;
      await sweep(now);
      nextSweep = now + DEDUP_SWEEP_MS;
      return nextSweep;
    },
  };

  return {
    keyOf,
    claim,
    record,
    view,
    worker,
    /** For metrics: hooks dropped as repeats, per channel, since the database was created. */
    droppedCounts(): Map<string, number> {
      const rows = sql.query("SELECT channel, dropped FROM dedup_stats").all() as { channel: string; dropped: number }[];
      return new Map(rows.map((r) => [r.channel, r.dropped]));
    },
    /** When a channel is deleted: its delivery ids and counter go too. */
    forget(channel: string): void {
      sql.transaction(() => {
        sql.run("DELETE FROM deliveries WHERE channel = ?", [channel]);
        sql.run("DELETE FROM dedup_stats WHERE channel = ?", [channel]);
      }).immediate();
    },
  };
}

export type Dedup = ReturnType<typeof createDedup>;

/** `stripe:<id>` of a Stripe event body ({"id": "evt_...", "object": "event"}); undefined otherwise. */
function stripeEventId(body: Uint8Array): string | undefined {
  try {
    const event = JSON.parse(new TextDecoder().decode(body)) as { id?: unknown };
    return typeof event?.id === "string" && event.id !== "" ? `stripe:${event.id}` : undefined;
  } catch {
    return undefined;
  }
}
