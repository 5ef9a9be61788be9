import { t } from "elysia";
import type { AlertConfig } from "../config/schema";
import { toRfc3339 } from "../lib/clock";
import type { AlertRuleRow } from "./rule-store";
import { formatDuration } from "./rules";

const strict = { additionalProperties: false } as const;
const Time = t.String({ description: "RFC 3339" });
const Duration = t.String({ description: 'a duration such as "30m"' });
const Names = t.Array(t.String());

/**
 * An alert rule as the API answers it (Mailroom's extension: docs/alerts.md): the keys of an
 * `[[alerts]]` entry (those given; durations as text), where it comes from, and who made it.
 */
export const AlertRule = t.Object(
  {
    name: t.String(),
    kind: t.Union([t.Literal("silence"), t.Literal("refusals"), t.Literal("handler"), t.Literal("new_event_type"), t.Literal("rate"), t.Literal("relay")]),
    channels: Names,
    query: t.Optional(t.String({ description: "only hooks this search finds (silence, rate)" })),
    event_types: t.Optional(Names),
    for: t.Optional(Duration),
    threshold: t.Optional(t.Integer({ minimum: 1 })),
    window: t.Optional(Duration),
    schedule: t.Optional(t.String()),
    reasons: t.Optional(Names),
    handlers: t.Optional(Names),
    notify: Names,
    repeat: t.Optional(Duration),
    source: t.Union([t.Literal("config"), t.Literal("api")], {
      description: "config: an [[alerts]] entry of the config file, read-only here; api: made through the API or the dashboard",
    }),
    created_by: t.Union([t.String(), t.Null()], { description: "who made it (api:<key label>, a dashboard user's e-mail); null for the config's" }),
    created_at: t.Union([Time, t.Null()]),
    updated_by: t.Union([t.String(), t.Null()]),
    updated_at: t.Union([Time, t.Null()]),
  },
  strict,
);

/** What POST /alerts takes and PATCH merges (null removes a key): checked by the config's checker, not here. */
export const AlertRuleIn = t.Object(
  {},
  {
    additionalProperties: true,
    description:
      "The keys of an [[alerts]] entry (docs/alerts.md): name, kind, channels, query, event_types, for, threshold, window, schedule, reasons, handlers, notify, repeat; " +
      'durations as text ("30m"). Checked as check-config checks the file: every problem is named in the 400.',
  },
);

const DURATIONS = ["for", "window", "repeat"] as const;

/** A converted rule (durations in ms) as the API shows it. */
export function toWireRule(rule: AlertConfig, row?: AlertRuleRow): typeof AlertRule.static {
  const out: Record<string, unknown> = {};
  // In the model's order, whichever order the rule was written in.
  for (const key of Object.keys(AlertRule.properties)) {
    const value = (rule as Record<string, unknown>)[key];
    if (value === undefined) continue;
    out[key] = (DURATIONS as readonly string[]).includes(key) ? formatDuration(value as number) : value;
  }
  return {
    ...(out as Omit<typeof AlertRule.static, "source" | "created_by" | "created_at" | "updated_by" | "updated_at">),
    source: row ? "api" : "config",
    created_by: row?.createdBy ?? null,
    created_at: row ? toRfc3339(row.createdAt) : null,
    updated_by: row?.updatedBy ?? null,
    updated_at: row ? toRfc3339(row.updatedAt) : null,
  };
}
