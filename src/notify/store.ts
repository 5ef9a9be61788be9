import type { IssueNotice } from "./notice";

/**
 * The notifiers' outbox (db/stores/notices.ts on both backends): each notice an issue event causes,
 * once per notifier, with its attempts, when it is due and its last error, so that a restart, a
 * kill -9 or another instance taking over the rules' lease loses nothing that was queued.
 *
 * A send is claimed first: `claim` is a compare-and-set on the notice's attempts and due time that
 * moves its due time to the end of the claim, so of two instances claiming one notice one wins; the
 * winner reports the outcome with the attempt number it claimed (`sent`, `failed`), which does
 * nothing when the claim was lost meanwhile. Times are ms since the epoch.
 */
export type NoticeState = "queued" | "sent" | "failed";

export type NoticeRow = {
  /** A lowercase ULID: notices of a notifier are sent in the order of their ids. */
  id: string;
  notifier: string;
  notice: IssueNotice;
  state: NoticeState;
  /** Sends begun (claimed), the one under way included. */
  attempts: number;
  /** When it is due: now, its retry, or the end of the claim of a send under way. */
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: number;
  /** When it was sent or given up; null while queued. */
  doneAt: number | null;
};

export type NewNotice = { id: string; notifier: string; notice: IssueNotice; at: number };

/** What `GET /v1/notifiers` counts for a notifier, the same on every instance. */
export type NotifierCounts = { queued: number; sent: number; failed: number; lastError: string | null; lastErrorAt: number | null };

export interface NoticeStore {
  /**
   * In transaction (the issue event's): queues each notice, due at its `at`. A notifier holding
   * `limit` queued notices already drops its oldest that no send has begun for (the one being
   * sent or waiting for its retry stays); resolves to the notices dropped. Throws the database's
   * error, nothing queued.
   */
  add(notices: readonly NewNotice[], limit: number): Promise<{ id: string; notifier: string }[]>;
  /** The notifier's oldest queued notice (the next to send: a notifier sends in order), if any. */
  next(notifier: string): Promise<NoticeRow | undefined>;
  /**
   * Claims the queued notice `id` for one send until `until`, if it is still at `attempts` and
   * due at `now`: its attempts go up by one (the attempt number to report with). Resolves to false
   * when another claimed it first, it is not due, or it is no longer queued.
   */
  claim(id: string, attempts: number, now: number, until: number): Promise<boolean>;
  /** Attempt `attempt` was delivered: the notice is sent and counted. Resolves to false (nothing changed) when that claim was lost. */
  sent(id: string, attempt: number, at: number): Promise<boolean>;
  /**
   * Attempt `attempt` failed with `error` (secrets masked by the caller): the notice is due again
   * at `retryAt`, or given up and counted as failed when `retryAt` is null; the notifier's last
   * error either way. Resolves to false (nothing changed) when that claim was lost.
   */
  failed(id: string, attempt: number, error: string, at: number, retryAt: number | null): Promise<boolean>;
  /** A notifier's last error from a send outside the outbox (a test from the notifiers screen). */
  lastError(notifier: string, error: string, at: number): Promise<void>;
  /** Per notifier that has any: queued, sent, failed, last error. */
  counts(): Promise<Map<string, NotifierCounts>>;
  /** Deletes notices sent or given up before `before`; resolves to how many. */
  prune(before: number): Promise<number>;
}
