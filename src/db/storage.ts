import type { HookStore } from "../hooks/store";
import type { SearchStore } from "../search/store";
import type { TransferStore } from "../transfer/store";
import type { AttemptQueue } from "../runner/queue";
import type { TranslateStore } from "../translate/contract";
import type { DashboardStore } from "../dashboard/store";
import type { ApiKeyStore } from "../hooks/api-key-store";
import type { GuardStore } from "../hooks/guard-store";
import type { ForwardStore } from "../forwards/store";
import type { ResponseStore } from "../responses/store";
import type { ReadStore, TagStore } from "../tags/store";
import type { MarkStore } from "../marks/store";
import type { ContractStore } from "../contracts/store";
import type { DedupStore } from "../dedup/store";
import type { RefusalStore } from "../hooks/guards/refusal-store";
import type { RelayStore } from "../relay/store";
import type { IssueStore } from "../alerts/store";
import type { NoticeStore } from "../notify/store";
import type { BulkJobStore } from "../bulk/store";
import type { ViewStore } from "../views/store";
import type { AlertRuleStore } from "../alerts/rule-store";
import type { ShareLinkStore } from "../share/store";
import type { Worker } from "../lib/worker";
import type { ChangeFeed } from "./feed";
import type { ChangeSink } from "../hooks/changes";
import type { Log } from "../lib/log";

/**
 * Everything Mailroom keeps, as one bundle of stores over one database: the storage contract the
 * services depend on (each store's interface says what its methods return and throw). SQLite
 * (db/sqlite/storage.ts) and PostgreSQL (db/pg/storage.ts) build it; nothing else knows a driver.
 * All stores of a bundle share its transactions.
 */
export interface Storage {
  readonly dialect: "sqlite" | "postgres";
  readonly hooks: HookStore;
  /** The search index (search/), written after hooks commit. */
  readonly search: SearchStore;
  /**
   * SQLite with an index thread (db/sqlite/search-thread.ts): the index is written there, on
   * connections of its own, and `search` only reads it; absent when this thread writes it.
   */
  readonly searchThread?: { url: string; dataPath: string; indexPath: string };
  /** Hooks stored whole: import, and hooks sent from another (transfer/). */
  readonly transfer: TransferStore;
  readonly attempts: AttemptQueue;
  readonly translate: TranslateStore;
  readonly dashboard: DashboardStore;
  readonly apiKeys: ApiKeyStore;
  readonly guards: GuardStore;
  readonly forwards: ForwardStore;
  readonly responses: ResponseStore;
  /** Hooks' tags (tags/). */
  readonly tags: TagStore;
  /** Which hooks each dashboard user has read (tags/). */
  readonly reads: ReadStore;
  /** What is found about hooks after their catch, e.g. a refusal of the same delivery before (marks/). */
  readonly marks: MarkStore;
  readonly dedup: DedupStore;
  readonly refusals: RefusalStore;
  readonly relays: RelayStore;
  /** Alerts' issues (alerts/). */
  readonly issues: IssueStore;
  /** The notifiers' outbox: alerts' notices waiting to be sent, and each notifier's counts (notify/). */
  readonly notices: NoticeStore;
  /** Alert rules made through the API (alerts/). */
  readonly alertRules: AlertRuleStore;
  /** Bulk actions' jobs (bulk/). */
  readonly bulkJobs: BulkJobStore;
  /** Saved views (views/). */
  readonly views: ViewStore;
  /** Read-only share links of a hook or a view (share/). */
  readonly shareLinks: ShareLinkStore;
  /** Contract checks of caught hooks and what each channel has seen (contracts/). */
  readonly contracts: ContractStore;
  /**
   * Where every store on this database reports what changed, once committed (hooks/changes.ts);
   * services and the change feed subscribe.
   */
  readonly changes: ChangeSink & { setLog(log: Pick<Log, "error">): void };
  /** What this instance tells the others sharing the database (nothing on SQLite). */
  readonly feed: ChangeFeed;
  /**
   * Resolves once what caught batches committed is on disk (SQLite with durability "full": the WAL
   * is synced off the event loop); absent when a commit is durable when it resolves.
   */
  readonly durable?: () => Promise<void>;
  /**
   * Caught batches committing at once: 1 on SQLite (one writer); several on PostgreSQL, whose
   * commits travel over the network and are synced together.
   */
  readonly commitLanes: number;
  /**
   * The worker as one that runs on one instance at a time among those sharing the database
   * (retention, the translation simulator); on SQLite the worker itself.
   */
  singleton(worker: Worker): Worker;
  /** Waits for pending syncs and closes the database. */
  close(): Promise<void>;
}
