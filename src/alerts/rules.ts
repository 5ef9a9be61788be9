import type { HookMatcher, WhenChecks } from "../config/checks";
import type { AlertConfig } from "../config/schema";
import { parseSchedule, type Schedule } from "../lib/schedule";
import type { AlertKind } from "../notify/notice";

/** A rule as the engine reads it: the config's, its channel patterns compiled, its schedule parsed. */
export type Rule = AlertConfig & {
  kind: AlertKind;
  /** Whether a channel is in the rule's scope. */
  watches(channel: string): boolean;
  /** Channels named without a pattern: watched for silence even before their first hook. */
  named: readonly string[];
  /** Whether a hook of this event type counts (every type when `event_types` is not given). */
  counts(eventType: string): boolean;
  parsedSchedule?: Schedule;
  /** Its `query` compiled: only the hooks it finds count (silence, rate). */
  match?: HookMatcher;
};

/** Compiles the rules (the config's checker accepted them: kinds known, schedules and queries parse). */
export function compileRules(alerts: readonly AlertConfig[], when?: Pick<WhenChecks, "compile">): Rule[] {
  return alerts.map((a) => {
    const patterns = a.channels.map((c) => new RegExp(`^${c.split("*").map(escapeRegExp).join(".*")}$`));
    const types = a.event_types ? new Set(a.event_types) : undefined;
    return {
      ...a,
      kind: a.kind as AlertKind,
      watches: (channel) => patterns.some((p) => p.test(channel)),
      named: a.channels.filter((c) => !c.includes("*")),
      counts: (eventType) => !types || types.has(eventType),
      parsedSchedule: a.schedule ? parseSchedule(a.schedule) : undefined,
      match: a.query && when ? when.compile(a.query) : undefined,
    };
  });
}

const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/** "30m", "2h", "45s": a duration as the summaries say it. */
export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/**
 * A refusal's reason kind (a `refusals` rule's `reasons`): `size` (413) and `paused` (503) are the
 * catching endpoint's own; of a guard's, `signature` when its reason speaks of a signature (the
 * providers' guards), else `guard`.
 */
export function reasonKind(refusal: { guard: string; status: number; reason: string }): string {
  if (!refusal.guard) return refusal.status === 413 ? "size" : refusal.status === 503 ? "paused" : "guard";
  return /signature/i.test(refusal.reason) ? "signature" : "guard";
}
