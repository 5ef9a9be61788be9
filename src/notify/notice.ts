/**
 * What a notifier is told (issue 33): an alert's issue opened, was reminded, or resolved, or a test
 * sent from the notifiers screen. alerts/ produces notices and hands them to a `Notify`; notify/
 * keeps it in the outbox (store.ts), turns it into each service's documented message (Slack,
 * Discord, Microsoft Teams, a generic webhook signed as Standard Webhooks, e-mail) and sends it
 * with retries, off every request's path.
 */
export type NoticeEvent = "opened" | "reminded" | "resolved" | "test";

export type AlertKind = "silence" | "refusals" | "handler" | "new_event_type" | "rate" | "relay";

export type IssueState = "open" | "acknowledged" | "resolved";

export interface IssueNotice {
  event: NoticeEvent;
  issue: {
    /** The issue's id (a lowercase ULID). */
    id: string;
    /** The rule's name, as configured. */
    rule: string;
    kind: AlertKind;
    /** What the issue is about: a channel, a handler, a relay listener ("stripe", "stripe/forward-app"). */
    scope: string;
    /** One line saying what happened ("no hook on stripe for 30 min"). */
    summary: string;
    state: IssueState;
    /** RFC 3339 times. */
    opened_at: string;
    last_seen_at: string;
    resolved_at: string | null;
    /** How many times the condition was seen since the issue opened. */
    count: number;
    /** A search query that lists the hooks behind the issue, when there are any. */
    hooks_query: string | null;
  };
  /** The issue in the dashboard, when `[server] public_url` is set; null otherwise. */
  url: string | null;
}

export interface Notify {
  /**
   * In the caller's transaction (the issue event's): queues the notice for each named notifier that
   * is configured (the others are skipped), to be sent once that transaction commits, by the
   * instance holding the rules' lease. Never waits for a send. Throws the database's error: the
   * issue event is not recorded either, and the rules try again at their next evaluation.
   */
  queue(notifiers: readonly string[], notice: IssueNotice): Promise<void>;
}
