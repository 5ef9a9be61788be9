import { VERSION } from "../lib/version";
import type { Config } from "../config/schema";
import { HOOK_STATUSES, type HookStatus } from "../hooks/status";
import { createChannelLabels, createEventTypeLabels, OTHER } from "./labels";
import { registerProcessMetrics } from "./process";
import { createRegistry } from "./registry";

export { CONTENT_TYPE } from "./registry";
import { registerRelayGauges, type RelaySnapshot } from "./relay";
export { OTHER } from "./labels";

/** Seconds, from half a millisecond (a hook with durability "normal") to 10 s. */
const CATCH_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096, 10000];

/** What the gauges read at scrape time; given once the app is built (watch). */
export type MetricSources = {
  /** Every channel with its counters, oldest first (stored channels get labels in that order at start). */
  channels(): Promise<{ name: string; stats: Record<HookStatus, number> }[]>;
  queueDepth(): Promise<number>;
  /** The database's size and (SQLite) its write-ahead log's, in bytes. */
  storageBytes(): Promise<{ database: number; wal: number }>;
  deduplicated?: () => Map<string, number>;
  /** The relays, upstream's and this Mailroom's own listens. */
  relays?: () => Promise<RelaySnapshot>;
};

type Snapshot = {
  rows: Awaited<ReturnType<MetricSources["channels"]>>;
  depth: number;
  bytes: { database: number; wal: number };
  relays: RelaySnapshot;
};

/**
 * Mailroom's metrics. Created before the runner and the app (both report into it); watch() then
 * registers the gauges read from the database. Counting never touches the database.
 */
export function createMetrics(config: Config) {
  const registry = createRegistry();
  const channels = createChannelLabels(
    config.channels.map((c) => c.name),
    config.metrics.channel_labels,
  );
  const handlers = new Set(config.handlers.map((h) => h.name));
  let read: (() => Promise<Snapshot>) | undefined;
  let snapshot: Snapshot = { rows: [], depth: 0, bytes: { database: 0, wal: 0 }, relays: { upstream: [], listening: [] } };

  registry.gauge("mailroom_build_info", "version of Mailroom and of the Bun runtime inside it", ["version", "bun"], () => [[[VERSION, Bun.version], 1]]);
  const caught = registry.counter("mailroom_hooks_caught_total", "hooks stored (counted when their batch commits)", ["channel"]);
  const eventTypes = createEventTypeLabels(config.metrics.event_type_labels);
  const caughtByType = registry.counter(
    "mailroom_hooks_caught_by_event_type_total",
    'hooks stored, by channel and the sender\'s event type ("" when unknown; "_other" past [metrics] event_type_labels)',
    ["channel", "event_type"],
  );
  const refused = registry.counter("mailroom_hooks_refused_total", "requests refused by a guard", ["channel", "guard"]);
  const attempts = registry.counter("mailroom_handler_attempts_total", "handler attempts finished, by outcome (succeeded, failed, gave_up, skipped)", [
    "handler",
    "outcome",
  ]);
  const breakers = registry.counter(
    "mailroom_handler_breaker_transitions_total",
    "circuit breaker transitions of a handler, by the state entered (open, half_open, closed)",
    ["handler", "state"],
  );
  /** Each handler's delivery state (delivery/controls.ts), once the composition hands it in. */
  let handlerStates: () => [string, string][] = () => [];
  registry.gauge(
    "mailroom_handler_state",
    "handlers in each delivery state: active, paused (by a user), breaker_open or breaker_half_open (1 for a handler of the config file)",
    ["handler", "state"],
    () => {
      // Handlers added in the dashboard share one label: their states are summed under it.
      const sums = new Map<string, number>();
      for (const [name, state] of handlerStates()) {
        const key = JSON.stringify([handlers.has(name) ? name : OTHER, state]);
        sums.set(key, (sums.get(key) ?? 0) + 1);
      }
      return [...sums].map(([key, n]) => [JSON.parse(key) as [string, string], n] as const);
    },
  );
  const chaos = registry.counter(
    "mailroom_delivery_chaos_total",
    "delivery chaos actions done by forward handlers (duplicate, reorder, delay, drop_first, burst)",
    ["handler", "action"],
  );
  const resigned = registry.counter("mailroom_delivery_resigned_total", "forward attempts re-signed, by the provider kind signed as", ["handler", "kind"]);
  const catchSeconds = registry.histogram("mailroom_catch_duration_seconds", "catching endpoint: from the request to its answer, in seconds", CATCH_BUCKETS);
  const batches = registry.histogram("mailroom_commit_batch_size", "hooks per group commit", BATCH_BUCKETS);
  const translate = registry.counter(
    "mailroom_translate_requests_total",
    "translation API requests by revision (A, B, translator, admin), route and HTTP status",
    ["revision", "route", "status"],
  );

  const contractChecks = registry.counter(
    "mailroom_contract_checks_total",
    "caught hooks checked against their provider's or the channel's JSON Schema, by result (valid, invalid, unknown, none: docs/contracts.md)",
    ["channel", "result"],
  );

  let watched = false;

  return {
    channels,
    /** A batch of hooks committed. */
    committed(batch: readonly { channel: string; eventType: string }[]): void {
      batches.observe(batch.length);
      // Counted by run of one channel and type (a flood's batch is mostly one), not hook by hook.
      let run = 0;
      for (let i = 0; i < batch.length; i++) {
        const h = batch[i]!;
        run++;
        const next = batch[i + 1];
        if (next && next.channel === h.channel && next.eventType === h.eventType) continue;
        const channel = channels.admit(h.channel);
        caught.inc([channel], run);
        caughtByType.inc([channel, eventTypes.admit(h.eventType)], run);
        run = 0;
      }
    },
    /** Caught hooks' contracts checked (contracts/): `n` of one channel with one result. */
    contractChecked(channel: string, result: string, n = 1): void {
      contractChecks.inc([channels.of(channel), result], n);
    },
    refused(channel: string, guard: string): void {
      refused.inc([channels.of(channel), guard]);
    },
    attempt(handler: string, outcome: string): void {
      attempts.inc([handlers.has(handler) ? handler : OTHER, outcome]);
    },
    /** A handler's circuit breaker entered `state`. */
    breaker(handler: string, state: string): void {
      breakers.inc([handlers.has(handler) ? handler : OTHER, state]);
    },
    /** Where the handlers' states are read at scrape time. */
    watchHandlers(read: () => [string, string][]): void {
      handlerStates = read;
    },
    /** A forward attempt re-signed as `kind` (delivery/). */
    resigned(handler: string, kind: string): void {
      resigned.inc([handlers.has(handler) ? handler : OTHER, kind]);
    },
    /** A delivery chaos action done on a forward attempt (delivery/). */
    chaos(handler: string, action: string): void {
      chaos.inc([handlers.has(handler) ? handler : OTHER, action]);
    },
    catchDuration(seconds: number): void {
      catchSeconds.observe(seconds);
    },
    translated(revision: string, route: string, status: number): void {
      translate.inc([revision, route, String(status)]);
    },

    /**
     * Registers the gauges read from storage and the runner, and the process's own; once. Resolves
     * once the channels already stored have their labels, oldest first (before anything is caught).
     * Gauges are read from storage once per scrape (render), not per gauge.
     */
    async watch(sources: MetricSources): Promise<void> {
      if (watched) throw new Error("metrics: watch() called twice");
      watched = true;
      for (const { name } of await sources.channels()) channels.admit(name);
      read = async () => {
        const [rows, depth, bytes, relays] = await Promise.all([
          sources.channels(),
          sources.queueDepth(),
          sources.storageBytes(),
          sources.relays?.() ?? { upstream: [], listening: [] },
        ]);
        return { rows, depth, bytes, relays };
      };
      registerRelayGauges(registry, () => snapshot.relays);
      registry.gauge("mailroom_hooks", "hooks held, by channel and status (the channels' counters; no hook is read)", ["channel", "status"], () => {
        const sums = new Map<string, number[]>();
        for (const { name, stats } of snapshot.rows) {
          const n = HOOK_STATUSES.map((status) => stats[status]);
          const label = channels.admit(name);
          const s = sums.get(label);
          if (s) for (let i = 0; i < 4; i++) s[i]! += n[i]!;
          else sums.set(label, n);
        }
        // Labelled channels oldest first, then the rest under one label.
        const ordered = [...sums].sort(([a], [b]) => Number(a === OTHER) - Number(b === OTHER));
        return ordered.flatMap(([label, n]) => HOOK_STATUSES.map((status, i) => [[label, status], n[i]!] as const));
      });
      if (sources.deduplicated) {
        const read = sources.deduplicated;
        registry.gauge(
          "mailroom_hooks_deduplicated_total",
          "repeated deliveries answered as the first and not stored, by channel (dedup)",
          ["channel"],
          () => {
            const sums = new Map<string, number>();
            for (const [name, n] of read()) {
              const label = channels.admit(name);
              sums.set(label, (sums.get(label) ?? 0) + n);
            }
            return [...sums].map(([label, n]) => [[label], n] as const);
          },
          "counter",
        );
      }
      registry.gauge("mailroom_handler_queue_depth", "handler attempts queued (due now or later)", [], () => [[[], snapshot.depth]]);
      registry.gauge("mailroom_database_bytes", "size of the database (the SQLite file, or the PostgreSQL database), in bytes", [], () => [
        [[], snapshot.bytes.database],
      ]);
      registry.gauge("mailroom_wal_bytes", "size of the SQLite write-ahead log, in bytes (0 on PostgreSQL)", [], () => [[[], snapshot.bytes.wal]]);
      registry.gauge(
        "mailroom_metrics_channels_labelled",
        `channels with a label of their own; the rest are counted under "${OTHER}" ([metrics] channel_labels)`,
        [],
        () => [[[], channels.labelled()]],
      );
      registerProcessMetrics(registry);
    },

    /** The text exposition of every metric. */
    async render(): Promise<string> {
      if (read) snapshot = await read();
      return registry.render();
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
