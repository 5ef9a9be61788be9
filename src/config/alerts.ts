import { Type as t } from "@sinclair/typebox";
import { parseSchedule } from "../lib/schedule";
import type { WhenChecks } from "./checks";
import type { Problem } from "./problems";
import { DurationValue, Name } from "./values";

/**
 * `[[alerts]]`: the rules alerts/ evaluates (docs/alerts.md). Durations are milliseconds once
 * loaded; `schedule` is checked here and parsed again by alerts/ (lib/schedule.ts); what each kind
 * requires is checked by `alertProblems`, which the loader runs.
 */
const strict = { additionalProperties: false } as const;
export const ALERT_KINDS = ["silence", "refusals", "handler", "new_event_type", "rate", "relay"] as const;
export const REFUSAL_REASONS = ["signature", "guard", "size", "paused"] as const;
const DURATION = 'must be a duration such as "30m"';

export const Alert = t.Object(
  {
    name: Name("the rule's name (issues and notifications say it)"),
    kind: t.String({ description: `what the rule watches: ${ALERT_KINDS.join(", ")}` }),
    channels: t.Array(t.String({ minLength: 1, maxLength: 64 }), {
      default: ["*"],
      description: 'the channels watched: names, or patterns with * ("stripe-*"); every channel by default',
    }),
    query: t.Optional(
      t.String({ minLength: 1, description: "only hooks this search query finds (the search grammar, docs/search.md): silence, rate, new_event_type" }),
    ),
    event_types: t.Optional(t.Array(t.String({ minLength: 1 }), { description: "only hooks of these event types (silence, rate)" })),
    for: t.Optional(DurationValue({ description: "how long (silence; handler: backlog age; relay: disconnected or waiting)", problem: DURATION })),
    threshold: t.Optional(t.Integer({ minimum: 1, description: "more than this many (refusals, rate); failures in a row (handler)" })),
    window: t.Optional(DurationValue({ description: "the span counted over (refusals, rate)", problem: DURATION })),
    schedule: t.Optional(t.String({ description: 'silence only within this schedule: "mon-fri 08:00-20:00 Europe/Berlin"' })),
    reasons: t.Optional(t.Array(t.String(), { description: `refusals only for these reasons: ${REFUSAL_REASONS.join(", ")}` })),
    handlers: t.Optional(t.Array(t.String({ minLength: 1 }), { description: "handler: only these handlers (every one by default)" })),
    notify: t.Array(t.String({ minLength: 1 }), {
      default: [],
      uniqueItems: true,
      description: "the notifiers told when an issue opens, is reminded, resolves",
    }),
    repeat: t.Optional(DurationValue({ description: "remind the notifiers this often while the issue is open", problem: DURATION })),
  },
  strict,
);

/** What a kind requires besides the common keys. */
const REQUIRES: Record<(typeof ALERT_KINDS)[number], readonly string[]> = {
  silence: ["for"],
  refusals: ["threshold", "window"],
  handler: [],
  new_event_type: [],
  rate: ["threshold", "window"],
  relay: ["for"],
};

/** The kinds whose rules may narrow their hooks with a search query (those that watch caught hooks one by one). */
export const QUERY_KINDS: readonly string[] = ["silence", "rate", "new_event_type"];

/**
 * What the schema cannot say of `[[alerts]]`: a known kind, the keys it requires, a schedule that
 * parses, known refusal reasons, a query that parses, unique names, and notifiers that exist.
 * `notifiers` are the names of `[[notifiers]]` when the file has that section (read raw: the
 * notifiers' schema is notify's); without it any names are accepted. `taken`: names other rules
 * have already (the API's rules are checked against the file's).
 */
export function alertProblems(
  alerts: readonly Record<string, unknown>[],
  notifiers: readonly string[] | undefined,
  when?: WhenChecks,
  taken: readonly string[] = [],
  path = (i: number) => `alerts[${i}]`,
): Problem[] {
  const problems: Problem[] = [];
  const names = new Set<string>(taken);
  alerts.forEach((a, i) => {
    const at = path(i);
    const key = (k: string) => (at ? `${at}.${k}` : k);
    if (typeof a.name === "string") {
      if (names.has(a.name)) problems.push({ path: key("name"), message: `duplicate name "${a.name}"` });
      names.add(a.name);
    }
    const kind = a.kind as (typeof ALERT_KINDS)[number];
    if (!ALERT_KINDS.includes(kind)) {
      problems.push({ path: key("kind"), message: `unknown kind "${String(a.kind)}" (one of ${ALERT_KINDS.join(", ")})` });
      return;
    }
    for (const k of REQUIRES[kind]) if (a[k] === undefined) problems.push({ path: key(k), message: `a ${kind} rule needs ${k}` });
    if (typeof a.schedule === "string") {
      if (kind !== "silence") problems.push({ path: key("schedule"), message: "only a silence rule has a schedule" });
      try {
        parseSchedule(a.schedule);
      } catch (error) {
        problems.push({ path: key("schedule"), message: (error as Error).message });
      }
    }
    if (typeof a.query === "string") {
      if (!QUERY_KINDS.includes(kind))
        problems.push({ path: key("query"), message: `only ${QUERY_KINDS.slice(0, -1).join(", ")} and ${QUERY_KINDS.at(-1)} rules take a query` });
      else if (a.event_types !== undefined) problems.push({ path: key("query"), message: "give either query or event_types, not both" });
      const wrong = when?.problem(a.query);
      if (wrong) problems.push({ path: key("query"), message: wrong });
    }
    if (Array.isArray(a.reasons)) {
      a.reasons.forEach((r, j) => {
        if (!REFUSAL_REASONS.includes(r))
          problems.push({ path: `${key("reasons")}[${j}]`, message: `unknown reason "${r}" (one of ${REFUSAL_REASONS.join(", ")})` });
      });
    }
    if (notifiers && Array.isArray(a.notify)) {
      a.notify.forEach((n, j) => {
        if (!notifiers.includes(n)) problems.push({ path: `${key("notify")}[${j}]`, message: `unknown notifier "${n}" (not in [[notifiers]])` });
      });
    }
  });
  return problems;
}
