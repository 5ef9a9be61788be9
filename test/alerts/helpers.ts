import type { IssueNotice, Notify } from "../../src/notify/notice";

/** A Notify that keeps what it was handed: [notifiers, event, rule, scope] per notice. */
export function recordingNotify() {
  const sent: { to: readonly string[]; notice: IssueNotice }[] = [];
  const notify: Notify = { send: (to, notice) => void sent.push({ to, notice }) };
  return { notify, sent, events: () => sent.map((s) => `${s.notice.event} ${s.notice.issue.rule} ${s.notice.issue.scope}`) };
}
