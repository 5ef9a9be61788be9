/**
 * An alert rule made through the API or the dashboard (times in ms since the epoch). `rule` is its
 * JSON as written: the keys of a `[[alerts]]` entry, durations as text ("30m"); the config's
 * checker reads it (config/alert-rule.ts).
 */
export type AlertRuleRow = { name: string; rule: string; createdBy: string; createdAt: number; updatedBy: string; updatedAt: number };

/**
 * Where the API's alert rules are kept (db/stores/alert-rules.ts on both backends). Each write
 * reports `{ kind: "state", part: "alert_rules" }` once committed: every instance reads the rules
 * again (the one evaluating them included).
 */
export interface AlertRuleStore {
  /** Every rule, by name. */
  list(): Promise<AlertRuleRow[]>;
  get(name: string): Promise<AlertRuleRow | undefined>;
  /** Stores a new rule; false when a rule of that name exists (of two racing, one wins). */
  create(row: AlertRuleRow): Promise<boolean>;
  /** Replaces a rule's JSON, saying who and when; resolves to the rule as stored, undefined when there is none. */
  update(name: string, rule: string, by: string, at: number): Promise<AlertRuleRow | undefined>;
  /** Removes a rule; false when there was none. */
  remove(name: string): Promise<boolean>;
}
