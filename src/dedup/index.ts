import type { Config } from "../config/schema";
import type { Clock } from "../lib/clock";
import { toRfc3339 } from "../lib/clock";
import { restAfter } from "../lib/pace";
import type { Worker } from "../lib/worker";
import type { DeliveryClaim as Claim } from "../hooks/deliveries";
import type { NewHook } from "../hooks/store";
import { REDACTED } from "../hooks/redact";
import type { DedupStore } from "./store";

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
 * The first copy of a delivery claims its id in the database (DedupStore.claim: on PostgreSQL the
 * `deliveries` row, pending until the hook's batch commits), so that of copies arriving at once,
 * on one instance or several, exactly one is stored and every other is answered with its id once
 * it is committed; a claim whose hook could not be stored is released. The `deliveries` row is
 * made the hook's in the hook's own transaction (restart-safe); each claim is one point query on
 * its primary key. Each channel's count of repeats is kept in memory too (read at start-up by
 * `load()`, then the total each drop's write returns), so metrics read no database.
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
/**
 * A claim of a delivery id not ended within this long is taken over by the next copy: the instance
 * that made it is presumed gone (a hook's batch commits within milliseconds).
 */
export const CLAIM_STALE_MS = 30_000;
/** Copies waiting for another instance's claim ask again after 2, 4, 8 ... ms, at most this long apart. */
const CLAIM_POLL_MAX_MS = 100;
/** Longer ids are not deduplicated (no provider sends one). */
export const MAX_DELIVERY_ID = 256;

type Setting = { windowMs: number; window: string; header?: string };

const AUTO_HEADERS: [string, string][] = [
  ["x-github-delivery", "github"],
  ["webhook-id", "svix"],
  ["svix-id", "svix"],
  ["x-shopify-webhook-id", "shopify"],
];

export function createDedup(deps: { config: Config; store: DedupStore; clock: Clock }) {
  const { config, clock, store } = deps;
  const settings = new Map<string, Setting>();
  for (const c of config.channels) {
    if (c.dedup) settings.set(c.name, { windowMs: c.dedup.window_ms, window: c.dedup.window, header: c.dedup.header?.toLowerCase() });
  }
  /** Repeats dropped per channel, as the database last told this process. */
  let dropped = new Map<string, number>();
  /** Delivery ids being claimed or stored by this process, by channel and id: what their hook's id turned out to be. */
  const inflight = new Map<string, Promise<string | undefined>>();

  /** The delivery id of a request to a deduplicating channel, namespaced; undefined when none. */
  function keyOf(channel: string, headers: Headers, body: Uint8Array): string | undefined {
    const s = settings.get(channel);
    if (!s) return undefined;
    return deliveryKey((name) => headers.get(name), body, s.header);
  }

  /**
   * The delivery id of a request to any channel, namespaced as a deduplicating channel's (its
   * configured header when it has one): what `has:refusal` matches a caught hook and a refusal by
   * (marks/). `headers` by lower-case name, as stored: a value redacted (a header whose name says
   * it is a credential) is none. `body` is needed only for a Stripe event's id.
   */
  function deliveryIdOf(channel: string, headers: Record<string, string>, body: Uint8Array | undefined): string | undefined {
    // Stripe-Signature is only looked for (its value is always redacted in a refusal).
    const get = (name: string) => (headers[name] === REDACTED && name !== "stripe-signature" ? undefined : headers[name]);
    return deliveryKey(get, body, settings.get(channel)?.header);
  }

  /**
   * Either the first hook of this delivery (a repeat within the window; counted as dropped), or a
   * claim whose settle() the caller calls with the stored hook's id once its batch committed
   * (undefined if storing failed: the claim is released and a waiting copy claims it). Copies in
   * this process wait for the first of them; copies on other instances wait for the claim in the
   * database (polling), so each is answered only once the hook is committed. Rejects with the
   * database's error.
   */
  async function claim(channel: string, key: string): Promise<Claim> {
    const k = `${channel}\n${key}`;
    for (;;) {
      const running = inflight.get(k);
      if (running) {
        const id = await running;
        if (id === undefined) continue;
        await drop(channel);
        return { first: id };
      }
      let done!: (id: string | undefined) => void;
      inflight.set(k, new Promise<string | undefined>((resolve) => (done = resolve)));
      const finish = (id: string | undefined) => {
        inflight.delete(k);
        done(id);
      };
      const token = `claim_${crypto.randomUUID()}`;
      let outcome: { claimed: true } | { hookId: string };
      try {
        outcome = await claimInDatabase(channel, key, token);
      } catch (error) {
        finish(undefined);
        throw error;
      }
      if ("hookId" in outcome) {
        finish(outcome.hookId);
        await drop(channel);
        return { first: outcome.hookId };
      }
      return {
        settle(id) {
          if (id !== undefined) {
            finish(id);
            void store.release(channel, key, token, true).catch(() => {});
            return;
          }
          // Released before the copies waiting here try again. Should the release fail, the claim
          // is taken over once stale (CLAIM_STALE_MS).
          void store
            .release(channel, key, token, false)
            .catch(() => false)
            .finally(() => finish(undefined));
        },
      };
    }
  }

  /** The claim of the delivery id, or its stored hook; asks again while another instance's claim holds it. */
  async function claimInDatabase(channel: string, key: string, token: string): Promise<{ claimed: true } | { hookId: string }> {
    const windowMs = settings.get(channel)!.windowMs;
    for (let pause = 2; ; pause = Math.min(pause * 2, CLAIM_POLL_MAX_MS)) {
      const now = clock.now();
      const outcome = await store.claim({ channel, deliveryId: key, hookId: token, createdAt: now }, now - windowMs, now - CLAIM_STALE_MS);
      if (!("pending" in outcome)) return outcome;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /** Counts a repeat; the total the write returns becomes the one metrics show. */
  async function drop(channel: string): Promise<void> {
    dropped.set(channel, await store.countDrop(channel, clock.now()));
  }

  /**
   * In the batch's transaction (the writer awaits it there): remembers the delivery ids of the
   * hooks stored. Rejects with the database's error, which rolls the batch back.
   */
  async function record(batch: readonly NewHook[]): Promise<void> {
    const rows = [];
    for (const h of batch) if (h.deliveryId !== undefined) rows.push({ channel: h.channel, deliveryId: h.deliveryId, hookId: h.id, createdAt: h.createdAt });
    if (rows.length > 0) await store.record(rows);
  }

  async function view(channel: string): Promise<DedupView> {
    const s = settings.get(channel);
    const stats = await store.stats(channel);
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
    for (const channel of await store.channels()) {
      const s = settings.get(channel);
      // Claims younger than CLAIM_STALE_MS stay even under a shorter window.
      const cutoff = s ? now - Math.max(s.windowMs, CLAIM_STALE_MS) : Number.MAX_SAFE_INTEGER;
      for (;;) {
        const startedAt = performance.now();
        if ((await store.sweep(channel, cutoff, SWEEP_BATCH)) < SWEEP_BATCH) break;
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
    /** Start-up: each channel's count of repeats, for metrics. Rejects with the database's error. */
    async load(): Promise<void> {
      dropped = await store.droppedCounts();
    },
    keyOf,
    deliveryIdOf,
    claim,
    record,
    view,
    worker,
    /** For metrics (memory only): hooks dropped as repeats, per channel, since the database was created. */
    droppedCounts(): Map<string, number> {
      return new Map(dropped);
    },
    /** When a channel is deleted: its delivery ids and counter go too. */
    async forget(channel: string): Promise<void> {
      await store.forget(channel);
      dropped.delete(channel);
    },
  };
}

export type Dedup = ReturnType<typeof createDedup>;

/** `stripe:<id>` of a Stripe event body ({"id": "evt_...", "object": "event"}); undefined otherwise. */
/**
 * A request's delivery id, namespaced: the `header` given, or else the first of AUTO_HEADERS, or a
 * Stripe event's id (with a Stripe-Signature header; the body read only then); undefined when none
 * or longer than MAX_DELIVERY_ID.
 */
export function deliveryKey(get: (name: string) => string | null | undefined, body: Uint8Array | undefined, header?: string): string | undefined {
  let key: string | undefined;
  if (header !== undefined) {
    const v = get(header);
    key = v ? `${header}:${v}` : undefined;
  } else {
    for (const [name, provider] of AUTO_HEADERS) {
      const v = get(name);
      if (v) {
        key = `${provider}:${v}`;
        break;
      }
    }
    if (key === undefined && body !== undefined && get("stripe-signature") != null) key = stripeEventId(body);
  }
  return key !== undefined && key.length <= MAX_DELIVERY_ID ? key : undefined;
}

function stripeEventId(body: Uint8Array): string | undefined {
  try {
    const event = JSON.parse(new TextDecoder().decode(body)) as { id?: unknown };
    return typeof event?.id === "string" && event.id !== "" ? `stripe:${event.id}` : undefined;
  } catch {
    return undefined;
  }
}
