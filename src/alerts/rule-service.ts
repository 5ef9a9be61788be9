import { checkAlertRule } from "../config/alert-rule";
import type { WhenChecks } from "../config/checks";
import type { AlertConfig } from "../config/schema";
import type { Clock } from "../lib/clock";
import { invalid, notFound, precondition } from "../lib/errors";
import type { Log } from "../lib/log";
import type { AlertEngine } from "./engine";
import { toWireRule } from "./rule-model";
import type { AlertRuleRow, AlertRuleStore } from "./rule-store";
import { compileRules } from "./rules";
import type { IssueStore } from "./store";

type Deps = {
  /** The config file's `[[alerts]]`: listed, never changed here. */
  configured: readonly AlertConfig[];
  store: AlertRuleStore;
  issues: Pick<IssueStore, "unresolved">;
  engine: Pick<AlertEngine, "setRules" | "resolve">;
  /** The configured notifiers' names (a rule's `notify` names them). */
  notifiers: readonly string[];
  when: WhenChecks;
  clock: Clock;
  log: Log;
};

/**
 * The alert rules: the config file's (read-only) and those made through the API or the dashboard
 * (stored: alerts/rule-store.ts), checked by the config's own checker (config/alert-rule.ts) and
 * handed to the engine at once: a change takes effect without a restart, on every instance (each
 * reads them again when the store reports a change: compose/alerts.ts).
 */
export function createAlertRules(deps: Deps) {
  const { configured, store, clock, when } = deps;
  const fileNames = configured.map((r) => r.name);
  let stored: { row: AlertRuleRow; rule?: AlertConfig }[] = [];

  /**
   * Reads the stored rules again and gives the engine the file's and those that pass the checks.
   * One read at a time, in the order asked: a read begun before a change never lands after one begun after it.
   */
  let reading: Promise<void> = Promise.resolve();
  function load(): Promise<void> {
    const next = reading.then(read, read);
    reading = next.catch(() => {});
    return next;
  }
  async function read(): Promise<void> {
    const taken = [...fileNames];
    stored = (await store.list()).map((row) => {
      const checked = checkAlertRule(parse(row.rule), { taken, notifiers: deps.notifiers, when });
      taken.push(row.name);
      if ("rule" in checked) return { row, rule: checked.rule };
      // A notifier removed from the config since: the rule stays listed, and is not evaluated.
      deps.log.warn("an alert rule is not evaluated", { rule: row.name, problems: checked.problems.map((p) => `${p.path}: ${p.message}`).join("; ") });
      return { row };
    });
    deps.engine.setRules(compileRules([...configured, ...stored.flatMap((s) => (s.rule ? [s.rule] : []))], when));
  }

  /** The rule checked, or a 400 naming every problem. */
  function checked(raw: unknown, except?: string): AlertConfig {
    const taken = [...fileNames, ...stored.map((s) => s.row.name)].filter((n) => n !== except);
    const result = checkAlertRule(raw, { taken, notifiers: deps.notifiers, when });
    if ("problems" in result) throw invalid(`invalid rule: ${result.problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join("; ")}`);
    return result.rule;
  }

  function editable(name: string): { row: AlertRuleRow } {
    if (fileNames.includes(name)) throw precondition(`alert rule "${name}" is in the config file: change it there`);
    const found = stored.find((s) => s.row.name === name);
    if (!found) throw notFound(`alert rule "${name}" not found`);
    return found;
  }

  const wire = (s: { row: AlertRuleRow; rule?: AlertConfig }) => toWireRule(s.rule ?? (parse(s.row.rule) as AlertConfig), s.row);

  return {
    load,
    list: () => [...configured.map((r) => toWireRule(r)), ...stored.map(wire)],
    get(name: string) {
      const file = configured.find((r) => r.name === name);
      if (file) return toWireRule(file);
      const found = stored.find((s) => s.row.name === name);
      if (!found) throw notFound(`alert rule "${name}" not found`);
      return wire(found);
    },
    /** A new rule; 400 when it does not pass the checks, 409 when its name is taken. */
    async create(raw: unknown, by: string) {
      await load();
      const name = (raw as { name?: unknown } | null)?.name;
      if (typeof name === "string" && (fileNames.includes(name) || stored.some((s) => s.row.name === name)))
        throw precondition(`an alert rule named "${name}" exists`);
      const rule = checked(raw);
      const now = clock.now();
      const row: AlertRuleRow = { name: rule.name, rule: JSON.stringify(raw), createdBy: by, createdAt: now, updatedBy: by, updatedAt: now };
      if (!(await store.create(row))) throw precondition(`an alert rule named "${rule.name}" exists`);
      await load();
      return toWireRule(rule, row);
    },
    /** Merges `patch` into a stored rule (null removes a key; the name stays); 409 for the config's, 404 for none. */
    async update(name: string, patch: Record<string, unknown>, by: string) {
      await load();
      const { row } = editable(name);
      if (patch.name !== undefined && patch.name !== name) throw invalid("invalid rule: name: a rule keeps its name (delete it and make another)");
      const merged: Record<string, unknown> = { ...(parse(row.rule) as Record<string, unknown>) };
      for (const [key, value] of Object.entries(patch)) {
        if (value === null) delete merged[key];
        else merged[key] = value;
      }
      const rule = checked(merged, name);
      const updated = await store.update(name, JSON.stringify(merged), by, clock.now());
      if (!updated) throw notFound(`alert rule "${name}" not found`);
      await load();
      return toWireRule(rule, updated);
    },
    /** Removes a stored rule and resolves its issues (by `by`); 409 for the config's, 404 for none. */
    async remove(name: string, by: string) {
      await load();
      editable(name);
      // Resolved while the engine still knows the rule's notifiers (they are told); by hand, so not opened again meanwhile.
      for (const issue of await deps.issues.unresolved()) if (issue.rule === name) await deps.engine.resolve(issue.id, by);
      if (!(await store.remove(name))) throw notFound(`alert rule "${name}" not found`);
      await load();
    },
  };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

export type AlertRules = ReturnType<typeof createAlertRules>;
