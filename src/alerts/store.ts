import type { Transactor } from "../lib/transactor";
import type { AlertKind, IssueState } from "../notify/notice";

/** One entry of an issue's history: who did what, when (ms). `by` is "mailroom" for the rules' own actions. */
export type IssueAction = { at: number; action: "opened" | "acknowledged" | "resolved" | "reopened"; by: string };

/** An issue as stored (times in ms since the epoch). */
export type IssueRow = {
  id: string;
  rule: string;
  kind: AlertKind;
  scope: string;
  summary: string;
  state: IssueState;
  openedAt: number;
  lastSeenAt: number;
  resolvedAt: number | null;
  count: number;
  hooksQuery: string | null;
  notifiedAt: number;
  history: IssueAction[];
};

/**
 * Where issues are kept (db/stores/issues.ts on both backends). `open`, `notified` and a
 * `transition` report an issue change (opened, reminded, acknowledged, resolved) to the change
 * sink once committed: the streams of every instance show it. Its `transaction` is the one every
 * store of the database shares: an issue event and the notices it causes (notify/store.ts, the
 * outbox) are written in one.
 */
export interface IssueStore extends Transactor {
  /** Stores a new issue. Throws when the id exists. */
  open(issue: IssueRow): Promise<void>;
  /** The issue of a rule and scope that is not resolved, if any. */
  active(rule: string, scope: string): Promise<IssueRow | undefined>;
  /** Every issue that is not resolved (the engine reads them at each evaluation). */
  unresolved(): Promise<IssueRow[]>;
  /** The condition seen again: count, last seen and summary updated. Resolves to false when the issue is resolved or gone. */
  seen(id: string, at: number, count: number, summary: string): Promise<boolean>;
  /** The notifiers are reminded at `at`, if the issue is still open: resolves to whether it was (a resolve that came meanwhile wins). */
  notified(id: string, at: number): Promise<boolean>;
  /**
   * Moves an issue to `to` (acknowledged or resolved) and records who did it, if its state is
   * one of `from`: resolves to the issue as it is now, "conflict" when its state is not in
   * `from`, undefined when there is no such issue. Compare-and-set: of two racing one wins.
   */
  transition(id: string, from: readonly IssueState[], to: IssueState, action: IssueAction): Promise<IssueRow | "conflict" | undefined>;
  get(id: string): Promise<IssueRow | undefined>;
  /** Newest first; `before`: ids below it (paging); `state`: only those. */
  list(filter: { state?: IssueState; before?: string; limit: number }): Promise<IssueRow[]>;
  /** How many issues are open (the dashboard's badge). */
  countOpen(): Promise<number>;
}
