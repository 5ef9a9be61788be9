import type { IssueNotice, NoticeEvent, Notify } from "../notify/notice";
import { toRfc3339 } from "../lib/clock";
import type { IssueRow } from "./store";

/** What becomes of an issue's event: a notice to the rule's notifiers, and the listeners (the live streams). */
export type IssueEvents = {
  /**
   * In the transaction that records the event (IssueStore.transaction): queues its notice for the
   * rule's notifiers in the outbox, so that the event and its notices commit together or not at
   * all, then tells the listeners. Throws the database's error.
   */
  emit(event: Exclude<NoticeEvent, "test">, issue: IssueRow, notifiers: readonly string[]): Promise<void>;
  /** Every issue event from now on (acknowledged included, which notifies nobody). */
  subscribe(fn: (event: "opened" | "reminded" | "acknowledged" | "resolved", issue: IssueRow) => void): void;
};

export function createIssueEvents(notify: Notify, publicUrl: string | undefined): IssueEvents & { acknowledged(issue: IssueRow): void } {
  const listeners: ((event: "opened" | "reminded" | "acknowledged" | "resolved", issue: IssueRow) => void)[] = [];
  const tell = (event: "opened" | "reminded" | "acknowledged" | "resolved", issue: IssueRow) => {
    for (const fn of listeners) fn(event, issue);
  };
  return {
    async emit(event, issue, notifiers) {
      if (notifiers.length > 0) await notify.queue(notifiers, toNotice(event, issue, publicUrl));
      tell(event, issue);
    },
    acknowledged: (issue) => tell("acknowledged", issue),
    subscribe: (fn) => void listeners.push(fn),
  };
}

/** An issue as a notifier is told of it (notify/notice.ts). */
export function toNotice(event: NoticeEvent, issue: IssueRow, publicUrl: string | undefined): IssueNotice {
  return {
    event,
    issue: {
      id: issue.id,
      rule: issue.rule,
      kind: issue.kind,
      scope: issue.scope,
      summary: issue.summary,
      state: issue.state,
      opened_at: toRfc3339(issue.openedAt),
      last_seen_at: toRfc3339(issue.lastSeenAt),
      resolved_at: issue.resolvedAt === null ? null : toRfc3339(issue.resolvedAt),
      count: issue.count,
      hooks_query: issue.hooksQuery,
    },
    url: publicUrl ? `${publicUrl}/ui/issues/${issue.id}` : null,
  };
}
