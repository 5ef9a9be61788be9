/**
 * What a notifier is told (issue 33): an alert's issue opened, was reminded, or resolved, or a test
 * sent from the notifiers screen. alerts/ produces notices and hands them to a `Notify`; notify/
 * turns one into each service's documented message (Slack, Discord, Microsoft Teams, a generic
 * webhook signed as Standard Webhooks, e-mail) and sends it with retries, off every request's path.
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
  /** Queues the notice for the named notifiers and returns at once; never throws, never waits for a send. */
  send(notifiers: readonly string[], notice: IssueNotice): void;
}
