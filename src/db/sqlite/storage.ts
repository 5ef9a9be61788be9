import { Database } from "bun:sqlite";
import type { Log } from "../../lib/log";
import type { Storage } from "../storage";
import type { Db } from "./open";
import { createWalSync } from "./wal-sync";
import { startCheckpointer, type Checkpointer } from "./checkpoint";
import { localFeed } from "../feed";
import { changesOf } from "../transactor";
import { createHookStore } from "./hook-store";
import { createSearchStore } from "./search-store";
import { attachSearchIndex, openSearchIndex } from "./search-index-file";
import { createTransferStore } from "./transfer-store";
import { createAttemptQueue } from "./attempt-queue";
import { createRefusalStore } from "./refusal-store";
import { sqliteDeliveryIds } from "./dedup-deliveries";
import { createTranslateStore } from "../stores/translate";
import { createDashboardStore } from "../stores/dashboard";
import { createApiKeyStore } from "../stores/api-keys";
import { createGuardStore } from "../stores/guards";
import { sqliteDialect } from "../stores/dialect";
import { createForwardStore } from "../stores/forwards";
import { createResponseStore } from "../stores/responses";
import { createReadStore, createTagStore } from "../stores/tags";
import { createMarkStore } from "../stores/marks";
import { createContractStore } from "../stores/contracts";
import { createDedupStore } from "../stores/dedup";
import { createRelayStore } from "../stores/relays";
import { createIssueStore } from "../stores/issues";
import { createNoticeStore } from "../stores/notices";
import { createBulkJobStore } from "../stores/bulk-jobs";
import { createViewStore } from "../stores/views";
import { createAlertRuleStore } from "../stores/alert-rules";
import { createShareLinkStore } from "../stores/share-links";

export type SqliteStorageOptions = {
  path: string;
  durability: "full" | "normal";
  /** How the WAL is fdatasynced for durability "full" (tests hold it back); node:fs by default. */
  syncWal?: () => Promise<void>;
  /** Checkpoints off the event loop (main.ts); the thread's module URL, as the executable holds it. */
  checkpoints?: { log: Log; threadUrl: string };
  /**
   * The search index thread's module URL, as the executable holds it (main.ts): the index is
   * written there; without it (tests, commands), by this thread.
   */
  searchThreadUrl?: string;
  /** The data file's lock (db/lock.ts), released by close(). */
  lock?: Database;
};

/**
 * SQLite's side of Storage: one process per data file. With durability "full", caught batches
 * commit without waiting for the disk and the WAL is synced off the event loop (db/wal-sync.ts)
 * before their senders are answered; checkpoints run on their own thread.
 */
export function createSqliteStorage(db: Db, opts: SqliteStorageOptions): Storage {
  const walSync = opts.durability === "full" && opts.path !== ":memory:" ? createWalSync(`${opts.path}-wal`, opts.syncWal) : undefined;
  const checkpointer: Checkpointer | undefined =
    opts.checkpoints && opts.path !== ":memory:"
      ? startCheckpointer({ sql: db.$client, path: opts.path, log: opts.checkpoints.log, threadUrl: opts.checkpoints.threadUrl })
      : undefined;
  // The index's own file (db/sqlite/search-index-file.ts): with the thread, searches read it through a
  // connection of their own, so that the main connection's write transactions never lock it.
  // It is derived data: one that cannot be used is kept elsewhere until a restart (openSearchIndex).
  const index = openSearchIndex(db.$client, opts.path, opts.checkpoints?.log);
  const indexPath = index.path;
  const threaded = opts.searchThreadUrl !== undefined && indexPath !== ":memory:";
  const reader = threaded ? new Database(opts.path, { readonly: true, strict: true }) : undefined;
  if (reader) {
    db.$client.run("DETACH DATABASE search");
    reader.run("PRAGMA busy_timeout = 5000");
    attachSearchIndex(reader, indexPath);
  }
  const d = sqliteDialect(db.$client);
  return {
    dialect: "sqlite",
    hooks: createHookStore(db, { unsynced: walSync !== undefined }),
    search: createSearchStore(reader ?? db),
    searchThread: threaded ? { url: opts.searchThreadUrl!, dataPath: opts.path, indexPath } : undefined,
    transfer: createTransferStore(db),
    attempts: createAttemptQueue(db),
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
    dedup: createDedupStore(d, sqliteDeliveryIds(db.$client)),
    refusals: createRefusalStore(db),
    relays: createRelayStore(d),
    issues: createIssueStore(d),
    notices: createNoticeStore(d),
    alertRules: createAlertRuleStore(d),
    bulkJobs: createBulkJobStore(d),
    views: createViewStore(d),
    shareLinks: createShareLinkStore(d),
    changes: changesOf(db.$client),
    feed: localFeed(),
    durable: walSync ? () => walSync.sync() : undefined,
    commitLanes: 1,
    singleton: (worker) => worker,
    async close() {
      walSync?.close();
      await checkpointer?.close();
      reader?.close();
      db.$client.close();
      index.discard();
      opts.lock?.close();
    },
  };
}
