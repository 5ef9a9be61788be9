import type { SQL } from "bun";
import type { Storage } from "../storage";
import type { Log } from "../../lib/log";
import { pgTransactor, READS_REST_MS } from "./transactor";
import { pgFeed } from "./feed";
import { changesOf } from "../transactor";
import { singleton } from "./singleton";
import { createPgHookStore } from "./hook-store";
import { createPgSearchStore } from "./search-store";
import { createPgTransferStore } from "./transfer-store";
import { COUNTER_SLOTS } from "./hook-store";
import { createPgAttemptQueue } from "./attempt-queue";
import { createTranslateStore } from "../stores/translate";
import { createDashboardStore } from "../stores/dashboard";
import { createApiKeyStore } from "../stores/api-keys";
import { createGuardStore } from "../stores/guards";
import { pgDialect } from "../stores/dialect";
import { createForwardStore } from "../stores/forwards";
import { createResponseStore } from "../stores/responses";
import { createReadStore, createTagStore } from "../stores/tags";
import { createMarkStore } from "../stores/marks";
import { createContractStore } from "../stores/contracts";
import { createDedupStore } from "../stores/dedup";
import { pgDeliveryIds } from "./dedup-deliveries";
import { createPgRefusalStore } from "./refusal-store";
import { createRelayStore } from "../stores/relays";
import { createIssueStore } from "../stores/issues";
import { createNoticeStore } from "../stores/notices";
import { createBulkJobStore } from "../stores/bulk-jobs";
import { createViewStore } from "../stores/views";
import { createAlertRuleStore } from "../stores/alert-rules";
import { createShareLinkStore } from "../stores/share-links";

/**
 * Caught batches in flight at once per instance. Measured on 2 cores with PostgreSQL beside (bench:ingest
 * --postgres): 1 lane 11.6k hooks/s, 2 lanes 13.7-14.4k, 3 lanes 12.6k, 8 lanes 10.4k; more lanes make
 * smaller batches, and commits, each synced, are what PostgreSQL has least of.
 */
const COMMIT_LANES = 2;

export type PostgresStorageOptions = {
  /** This instance's id: the owner of its attempt leases and the sender of its feed notifications. */
  instance: string;
  /** How long an attempt stays claimed by an instance that stopped answering ([storage] attempt_lease). */
  leaseMs: number;
  log: Log;
  /** The pool of searches and counts, opened with `customPlans` (pgTransactor says why); closed with the storage. */
  reads?: SQL;
};

/**
 * PostgreSQL's side of Storage, for one or several instances on one (migrated) database: every
 * store shares the pool and its transactions, searches and counts outside a transaction read on
 * `reads`, the feed listens on its own connection, and each singleton worker holds an advisory
 * lock on a connection of its own while it runs here.
 */
export async function createPostgresStorage(sql: SQL, opts: PostgresStorageOptions): Promise<Storage> {
  const t = pgTransactor(sql, opts.reads, (error) =>
    opts.log.warn(
      `the pool of reads could not connect; searches and counts plan for their values in a transaction each for the next ${READS_REST_MS / 1000} s, then the pool is tried again`,
      { error: error instanceof Error ? error.message : String(error) },
    ),
  );
  const d = pgDialect(t);
  const feed = await pgFeed(sql, opts.instance, opts.log);
  const singletons: ReturnType<typeof singleton>[] = [];
  return {
    dialect: "postgres",
    hooks: createPgHookStore(t),
    search: createPgSearchStore(t),
    transfer: createPgTransferStore(t, COUNTER_SLOTS),
    attempts: createPgAttemptQueue(t, { owner: opts.instance, leaseMs: opts.leaseMs }),
    translate: createTranslateStore(d),
    dashboard: createDashboardStore(d),
    apiKeys: createApiKeyStore(d),
    guards: createGuardStore(d),
    forwards: createForwardStore(d),
    responses: createResponseStore(d),
    tags: createTagStore(d),
    marks: createMarkStore(d),
    reads: createReadStore(d),
    contracts: createContractStore(d),
    dedup: createDedupStore(d, pgDeliveryIds(t)),
    refusals: createPgRefusalStore(t),
    relays: createRelayStore(d),
    issues: createIssueStore(d),
    notices: createNoticeStore(d),
    alertRules: createAlertRuleStore(d),
    bulkJobs: createBulkJobStore(d),
    views: createViewStore(d),
    shareLinks: createShareLinkStore(d),
    changes: changesOf(sql),
    feed,
    commitLanes: COMMIT_LANES,
    singleton(worker) {
      const one = singleton(sql, worker);
      singletons.push(one);
      return one;
    },
    async close() {
      await feed.close();
      for (const s of singletons) await s.close();
      // Both pools, whichever fails to close.
      await Promise.allSettled([sql.close({ timeout: 5 }), opts.reads?.close({ timeout: 5 })]);
    },
  };
}
