import { t } from "elysia";
import { Value } from "@sinclair/typebox/value";
import { parseRfc3339, toRfc3339 } from "../lib/clock";
import { requestPartsProblem } from "../lib/http-syntax";
import { cleanEventType } from "../hooks/event-type";
import { TAG_PATTERN } from "../config/tags";
import { ChannelName, Event, HookId, HookStatus } from "../hooks/model";
import type { EventKind } from "../hooks/status";
import type { TransferHook } from "./store";

/**
 * One line of a JSON lines export: the Hook resource without `payload` (body is the base64 of the
 * exact bytes, events kept), with `source_id` when the hook was made from another.
 */
export const ExportedHook = t.Object(
  {
    id: HookId,
    channel: ChannelName,
    status: HookStatus,
    method: t.String({ minLength: 1, maxLength: 32 }),
    query: t.String({ maxLength: 65536 }),
    headers: t.Record(t.String(), t.String()),
    content_type: t.Optional(t.String()),
    body: t.String({ description: "Base64 of the exact body bytes" }),
    ip: t.String({ maxLength: 64 }),
    created_at: t.String(),
    finalized_at: t.Optional(t.Union([t.String(), t.Null()])),
    event_type: t.Optional(t.String({ maxLength: 128 })),
    source_id: t.Optional(t.Union([HookId, t.Null()])),
    verified: t.Optional(t.Boolean({ description: "Whether a guard authenticated its sender where it was caught; an import reads past it" })),
    tags: t.Optional(t.Array(t.String({ pattern: TAG_PATTERN }), { maxItems: 1000, description: "Its tags (docs/tags.md); absent when it has none" })),
    events: t.Array(Event),
    contract: t.Optional(
      t.Unknown({ description: "Its contract check where it was exported (docs/contracts.md); an import reads past it: the hooks it stores are not checked" }),
    ),
  },
  { additionalProperties: false },
);

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** A request target's query as catching stores it: no space, no C0 or C1 control, no DEL. */
const QUERY = /^[^\x00-\x20\x7f-\x9f]*$/;
/** A sender's address as catching stores it (and a relay frame must hold it): visible ASCII, no space. */
const IP = /^[\x21-\x7e]*$/;

/** A line of the export; `contract` is the hook's contract check, when it has one (docs/contracts.md). */
export function exportLine(h: TransferHook, contract?: unknown): string {
  const line: Record<string, unknown> = {
    id: h.id,
    channel: h.channel,
    status: h.status,
    method: h.method,
    query: h.query,
    headers: h.headers,
    body: Buffer.from(h.body).toString("base64"),
    ip: h.ip,
    created_at: toRfc3339(h.createdAt),
  };
  if (h.finalizedAt !== null) line.finalized_at = toRfc3339(h.finalizedAt);
  line.event_type = h.eventType;
  if (h.sourceId) line.source_id = h.sourceId;
  if (h.verified != null) line.verified = h.verified;
  if (h.tags?.length) line.tags = h.tags;
  line.events = h.events.map((e) => ({ kind: e.kind, actor: e.actor, message: e.message, created_at: toRfc3339(e.createdAt) }));
  if (contract !== undefined) line.contract = contract;
  return JSON.stringify(line);
}

function time(text: string, what: string): number {
  // The offset is required: without one the import would depend on the machine's zone.
  const ms = parseRfc3339(text);
  if (ms === undefined) throw new Error(`${what}: must be an RFC 3339 time`);
  return ms;
}

/** A line of an export as a hook to store; throws an Error saying what is wrong. */
export function parseLine(text: string): TransferHook {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("not JSON");
  }
  if (!Value.Check(ExportedHook, value)) {
    const first = Value.Errors(ExportedHook, value).First();
    throw new Error(`${first?.path || "line"}: ${first?.message ?? "invalid"}`);
  }
  if (!BASE64.test(value.body) || value.body.length % 4 !== 0) throw new Error("/body: must be base64");
  // PostgreSQL's text holds no NUL: refused here, so an import stores the same on both databases.
  const texts: [string, string | undefined][] = [
    ["/method", value.method],
    ["/query", value.query],
    ["/ip", value.ip],
    ["/event_type", value.event_type],
    ...value.events.flatMap((e, i): [string, string][] => [
      [`/events/${i}/actor`, e.actor],
      [`/events/${i}/message`, e.message],
    ]),
  ];
  for (const [where, text] of texts) if (text?.includes("\0")) throw new Error(`${where}: must not contain NUL`);
  // What the catching endpoint's HTTP parser lets through, and nothing else: a method or header that
  // could not have been caught would be sent on by handlers and written into copied curl commands.
  const parts = requestPartsProblem(value.method, value.headers);
  if (parts) throw new Error(`${parts.startsWith("the method") ? "/method" : "/headers"}: ${parts}`);
  if (!QUERY.test(value.query)) throw new Error("/query: must not contain spaces or control characters (a caught query has them percent-encoded)");
  // Printed as it is (hooks show, the dashboard): a control character would be a terminal's escape.
  if (!IP.test(value.ip)) throw new Error("/ip: must be an address: visible ASCII without spaces");
  return {
    id: value.id,
    channel: value.channel,
    status: value.status,
    method: value.method,
    query: value.query,
    headers: value.headers,
    body: new Uint8Array(Buffer.from(value.body, "base64")),
    ip: value.ip,
    createdAt: time(value.created_at, "/created_at"),
    finalizedAt: value.finalized_at ? time(value.finalized_at, "/finalized_at") : null,
    // Derived from the hook, cleaned as catching cleans it (an earlier version kept format characters).
    eventType: cleanEventType(value.event_type),
    sourceId: value.source_id ?? null,
    ...(value.tags?.length ? { tags: [...new Set(value.tags)] } : {}),
    events: value.events.map((e) => ({
      hookId: value.id,
      kind: e.kind as EventKind,
      actor: e.actor,
      message: e.message,
      createdAt: time(e.created_at, "/events/created_at"),
    })),
  };
}
