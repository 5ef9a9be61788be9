import { Value } from "@sinclair/typebox/value";
import { Alert, alertProblems } from "./alerts";
import type { WhenChecks } from "./checks";
import { check } from "./load";
import type { Problem } from "./problems";
import type { AlertConfig } from "./schema";

/**
 * One alert rule as the API or the dashboard gives it (the keys of an `[[alerts]]` entry, durations
 * as text), checked as the loader checks the file's: the same schema (unknown keys with "did you
 * mean") and the same `alertProblems`. `taken`: the names of the other rules (the file's and the
 * stored ones); `notifiers`: the configured notifiers' names. Resolves to every problem (paths
 * relative to the rule), or the rule converted (durations in milliseconds).
 */
export function checkAlertRule(
  raw: unknown,
  { taken, notifiers, when }: { taken: readonly string[]; notifiers: readonly string[]; when: WhenChecks },
): { problems: Problem[] } | { rule: AlertConfig } {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { problems: [{ path: "", message: "must be an object" }] };
  const value = Value.Default(Alert, structuredClone(raw));
  const problems = check(Alert, value, "");
  try {
    problems.push(...alertProblems([value as Record<string, unknown>], notifiers, when, taken, () => ""));
  } catch {
    // A malformed value the schema reported already.
  }
  if (problems.length > 0) return { problems };
  return { rule: Value.Decode(Alert, value) as AlertConfig };
}
