import { t } from "elysia";
import { toRfc3339 } from "../lib/clock";
import type { IssueRow } from "./store";

const strict = { additionalProperties: false } as const;
const Time = t.String({ description: "RFC 3339" });

/** An issue as the API answers it (Mailroom's extension: docs/alerts.md). */
export const Issue = t.Object(
  {
    id: t.String({ description: "a lowercase ULID" }),
    rule: t.String({ description: "the rule's name" }),
    kind: t.Union([t.Literal("silence"), t.Literal("refusals"), t.Literal("handler"), t.Literal("new_event_type"), t.Literal("rate"), t.Literal("relay")]),
    scope: t.String({ description: "what it is about: a channel, a channel and event type, a relay listener" }),
    summary: t.String({ description: "what happened, in one line" }),
    state: t.Union([t.Literal("open"), t.Literal("acknowledged"), t.Literal("resolved")]),
    opened_at: t.String({ description: "since when the condition holds (RFC 3339)" }),
    last_seen_at: Time,
    resolved_at: t.Union([Time, t.Null()]),
    count: t.Integer({ minimum: 0, description: "how many times the condition was seen (a level: how far it went)" }),
    hooks_query: t.Union([t.String(), t.Null()], { description: "GET /v1/hooks's query listing the hooks behind it; null when there are none" }),
    history: t.Array(
      t.Object(
        {
          at: Time,
          action: t.Union([t.Literal("opened"), t.Literal("acknowledged"), t.Literal("resolved"), t.Literal("reopened")]),
          by: t.String({ description: '"mailroom" for the rules, else "api:<key label>" or the dashboard user\'s e-mail' }),
        },
        strict,
      ),
      { description: "who did what, oldest first" },
    ),
  },
  { ...strict, description: "an alert rule's issue" },
);

export function toWireIssue(i: IssueRow) {
  return {
    id: i.id,
    rule: i.rule,
    kind: i.kind,
    scope: i.scope,
    summary: i.summary,
    state: i.state,
    opened_at: toRfc3339(i.openedAt),
    last_seen_at: toRfc3339(i.lastSeenAt),
    resolved_at: i.resolvedAt === null ? null : toRfc3339(i.resolvedAt),
    count: i.count,
    hooks_query: i.hooksQuery,
    history: i.history.map((h) => ({ at: toRfc3339(h.at), action: h.action, by: h.by })),
  };
}
