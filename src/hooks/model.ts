import type { SchemaOptions, TLiteral } from "@sinclair/typebox";
import { t, type Static } from "elysia";
import { NAME_PATTERN } from "../config/schema";
import { toRfc3339 } from "../lib/clock";
import { HOOK_ID_PATTERN } from "../lib/ids";
import { EVENT_KINDS, HOOK_STATUSES } from "./status";
import type { Refusal } from "./guards/types";
import type { ChannelRow, EventRow, RawHook } from "./store";

/** The spec's resources, exactly: these models are the only shapes the management API writes. */

const strict = { additionalProperties: false } as const;
export const ChannelName = t.String({ maxLength: 64, pattern: NAME_PATTERN });
export const HookId = t.String({ pattern: HOOK_ID_PATTERN });
/** The literals of a list, as a tuple (a union of literals documents and checks as the list did). */
type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };
const literals = <const T extends readonly string[]>(values: T) => values.map((v) => t.Literal(v)) as Literals<T>;

/** One of HOOK_STATUSES; `options` for a parameter's own error message. */
export const hookStatusSchema = (options?: SchemaOptions) => t.Union(literals(HOOK_STATUSES), options);
export const HookStatus = hookStatusSchema();
const Count = t.String({ pattern: "^[0-9]+$" });

export const ChannelStats = t.Object(Object.fromEntries(HOOK_STATUSES.map((s) => [s, Count])) as Record<(typeof HOOK_STATUSES)[number], typeof Count>, strict);
export const Channel = t.Object({ name: ChannelName, paused: t.Boolean(), stats: ChannelStats, guards: t.Array(ChannelName, { uniqueItems: true }) }, strict);

export const Event = t.Object(
  {
    kind: t.Union(literals(EVENT_KINDS)),
    actor: t.String(),
    message: t.String(),
    created_at: t.String(),
  },
  strict,
);

/** The spec's Hook, exactly ("No other properties are allowed on a Hook"): what every route answers by default. */
export const Hook = t.Object(
  {
    id: HookId,
    channel: ChannelName,
    status: HookStatus,
    method: t.String(),
    query: t.String(),
    headers: t.Record(t.String(), t.String()),
    content_type: t.String(),
    body: t.String({ format: "byte" }),
    payload: t.Optional(t.Union([t.Record(t.String(), t.Unknown()), t.Null()])),
    ip: t.String(),
    created_at: t.String(),
    finalized_at: t.Optional(t.Union([t.String(), t.Null()])),
    events: t.Array(Event),
  },
  strict,
);

/**
 * Mailroom's extension fields of a hook: answered only where a client asks for them
 * (`include=extensions` of ListHooks and GetHook), and by the extensions' own answers (SendHook,
 * the stream). A later extension field goes here, never on Hook.
 */
export const HOOK_EXTENSIONS = {
  tags: t.Optional(t.Array(t.String({ maxLength: 32 }), { description: "Its tags, sorted (docs/tags.md); absent when it has none" })),
  event_type: t.String({
    maxLength: 128,
    description:
      "The sender's event type (`push`, `pull_request.opened`, `invoice.paid`, `orders/create`), where its preset guard or a well-known header or body field says it; empty when unknown (docs/catching.md)",
  }),
  source_id: t.Optional(t.String({ pattern: HOOK_ID_PATTERN, description: "The hook this one was made from (SendHook)" })),
  verified: t.Optional(
    t.Boolean({
      description:
        "Whether a guard that authenticates the sender (a signature, a token, a password) passed when it was caught; absent when unknown (caught before this was recorded, imported, or sent from the dashboard) (docs/delivery.md)",
    }),
  ),
  contract: t.Optional(
    t.Object(
      {
        result: t.Union([t.Literal("valid"), t.Literal("invalid"), t.Literal("unknown"), t.Literal("none")], {
          description:
            "valid or invalid against its provider's or its channel's JSON Schema; unknown: the provider has schemas but not for this event type; none: no schema (docs/contracts.md)",
        }),
        violations: t.Array(t.Object({ path: t.String({ description: "JSON Pointer into the body" }), message: t.String() }, strict), {
          maxItems: 5,
          description: "The first violations (invalid only)",
        }),
        new_type: t.Boolean({ description: "The first hook of its event type on its channel" }),
        new_field: t.Boolean({ description: "The first hook of its event type on its channel with a field path never seen before" }),
      },
      { ...strict, description: "Its contract check, once done (absent before, and for hooks caught by another tool or imported)" },
    ),
  ),
};

/** Hook with Mailroom's extension fields (`include=extensions`). */
export const HookExtended = t.Object({ ...Hook.properties, ...HOOK_EXTENSIONS }, strict);

/**
 * A hook's summary (`fields=summary` of ListHooks, live streams): the resource without body,
 * payload, headers and events, with `size`, the body's bytes (hookSummaryJson writes it).
 */
export const HookSummary = t.Object(
  {
    id: HookId,
    channel: ChannelName,
    status: HookStatus,
    method: t.String(),
    query: t.String(),
    content_type: t.String(),
    ip: t.String(),
    created_at: t.String(),
    finalized_at: t.Optional(t.String()),
    size: t.Integer({ minimum: 0, description: "Bytes of the body" }),
    event_type: t.String({ maxLength: 128, description: "The sender's event type, empty when unknown (as HookExtended's)" }),
    verified: t.Optional(t.Boolean({ description: "Whether a guard authenticated its sender on catch; absent when unknown (as HookExtended's)" })),
    preview: t.String({
      maxLength: 400,
      description:
        "The body's first 100 characters as text on one line (whitespace collapsed, control characters and invalid UTF-8 as U+FFFD); empty for a body that is not text",
    }),
    tags: t.Optional(
      t.Array(t.String({ maxLength: 32 }), {
        description: "With `include=extensions`, and on the stream: its tags, sorted, as HookExtended's; absent when it has none",
      }),
    ),
    contract: t.Optional(
      t.Object(HOOK_EXTENSIONS.contract.properties, { ...strict, description: "With `include=extensions`: its contract check, as HookExtended's" }),
    ),
  },
  strict,
);

/**
 * What hook reads answer: the Hook model, documented but not checked on the way out (Elysia's
 * `noValidate`). The rows are mapped by toWireHook, which is typed against Hook; checking again
 * costs the one thread that also catches about 0.1 s per MiB of body (the `byte` format runs a
 * regex over the base64 text), and at 6 MiB the regex gives up, failing the read with a 500 that
 * logged the whole hook (bench/hook-reads.ts).
 */
export const HookOut = t.Object(Hook.properties, { ...strict, noValidate: true });
/** GetHook's answer: Hook, or with `include=extensions` HookExtended (documented, not checked: see HookOut). */
export const HookOrExtendedOut = t.Union([Hook, HookExtended], { noValidate: true, description: "Hook, or with `include=extensions` HookExtended" });
/** SendHook's answer: the new hook with its `source_id` (SendHook is itself an extension). */
export const HookExtendedOut = t.Object(HookExtended.properties, { ...strict, noValidate: true });
export const HookListOut = t.Union([t.Array(Hook), t.Array(HookExtended), t.Array(HookSummary)], {
  noValidate: true,
  description: "Hooks; with `include=extensions` HookExtended items; with `fields=summary` their summaries",
});

export const ErrorBody = t.Object({ code: t.Integer(), message: t.String(), details: t.Array(t.Unknown()) }, strict);
export const Empty = t.Object({}, strict);
/** For operations that take no query parameters / no body: anything given is an unknown field. */
export const NoQuery = t.Object({}, { ...strict, error: "this operation takes no query parameters" });
export const NoBody = t.Object({}, { ...strict, error: "this operation takes no request body" });

export type ChannelWire = Static<typeof Channel>;
export type HookWire = Static<typeof Hook>;
export type HookExtendedWire = Static<typeof HookExtended>;
export type EventWire = Static<typeof Event>;

export function toWireChannel(c: ChannelRow): ChannelWire {
  return {
    name: c.name,
    paused: c.paused,
    stats: Object.fromEntries(HOOK_STATUSES.map((s) => [s, String(c.stats[s])])) as ChannelWire["stats"],
    guards: c.guards,
  };
}

/** The media type without parameters, lower-case; empty when no Content-Type was sent. */
export function mediaType(headers: Record<string, string>): string {
  return mediaTypeOf(headers["content-type"]);
}

/** The media type of a Content-Type value: `application/json` of `Application/JSON; charset=utf-8`. */
export function mediaTypeOf(contentType: string | null | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/** A stored hook as the API shows it, with its extension fields (plainHook leaves them out). */
export function toWireHook(h: RawHook, events: readonly EventRow[], payload: Record<string, unknown> | null): HookExtendedWire {
  const wire: HookExtendedWire = {
    id: h.id,
    channel: h.channel,
    status: h.status,
    method: h.method,
    query: h.query,
    headers: h.headers,
    content_type: mediaType(h.headers),
    body: Buffer.from(h.body).toString("base64"),
    payload,
    ip: h.ip,
    created_at: toRfc3339(h.createdAt),
    event_type: h.eventType,
    events: events.map((e) => ({
      kind: e.kind as EventWire["kind"],
      actor: e.actor,
      message: e.message,
      created_at: toRfc3339(e.createdAt),
    })),
  };
  if (h.finalizedAt !== null) wire.finalized_at = toRfc3339(h.finalizedAt);
  if (h.sourceId) wire.source_id = h.sourceId;
  if (h.verified != null) wire.verified = h.verified;
  return wire;
}

/** The spec's Hook of an extended one: every extension field (HOOK_EXTENSIONS) left out. */
export function plainHook(h: HookExtendedWire): HookWire {
  const plain: Record<string, unknown> = { ...h };
  for (const key of EXTENSION_KEYS) delete plain[key];
  return plain as HookWire;
}
const EXTENSION_KEYS = Object.keys(HOOK_EXTENSIONS);

/**
 * The summary of a hook (`fields=summary`): the resource without body, payload, headers and
 * events, plus `size`; `contentType` is its Content-Type header. ListHooks with `fields=summary`
 * and live streams send it; made for every hook caught while a stream wants every hook's summary,
 * so it is written out rather than stringified whole: ids and channel names need no escaping (their patterns allow none of JSON's special characters), the sender's
 * part is stringified once for a run of hooks from one sender, timestamps once per millisecond.
 */
export function hookSummaryJson(h: {
  id: string;
  channel: string;
  status: string;
  method: string;
  query: string;
  contentType: string | null;
  ip: string;
  createdAt: number;
  finalizedAt: number | null;
  size: number;
  eventType: string;
  /** Whether a guard authenticated its sender on catch; null or absent: unknown (not written). */
  verified?: boolean | null;
  /** bodyPreview of the body's head (hooks/preview.ts). */
  preview: string;
}): string {
  const finalized = h.finalizedAt === null ? "" : `,"finalized_at":"${toRfc3339(h.finalizedAt)}"`;
  const eventType =
    h.eventType === "" ? "" : h.eventType === lastType ? lastTypeJson : ((lastType = h.eventType), (lastTypeJson = JSON.stringify(h.eventType)));
  return `{"id":"${h.id}","channel":"${h.channel}","status":"${h.status}",${senderJson(h)},"created_at":"${rfc3339Cached(h.createdAt)}"${finalized},"size":${h.size},"event_type":${eventType || '""'}${h.verified == null ? "" : `,"verified":${h.verified}`},"preview":${JSON.stringify(h.preview)}}`;
}

let lastType = "";
let lastTypeJson = "";

let sender = { method: "", query: "", contentType: null as string | null, ip: "", json: "" };
function senderJson(h: { method: string; query: string; contentType: string | null; ip: string }): string {
  if (h.method !== sender.method || h.query !== sender.query || h.contentType !== sender.contentType || h.ip !== sender.ip || !sender.json) {
    const json = `"method":${JSON.stringify(h.method)},"query":${JSON.stringify(h.query)},"content_type":${JSON.stringify(mediaTypeOf(h.contentType))},"ip":${JSON.stringify(h.ip)}`;
    sender = { method: h.method, query: h.query, contentType: h.contentType, ip: h.ip, json };
  }
  return sender.json;
}

let lastMs = NaN;
let lastTime = "";
function rfc3339Cached(ms: number): string {
  if (ms !== lastMs) (lastMs = ms), (lastTime = toRfc3339(ms));
  return lastTime;
}

/** A stored refusal as ListRefusals, GetRefusal and the stream's `refusal` events show it. */
export function toWireRefusal(r: Refusal) {
  return {
    id: r.id,
    kind: r.kind,
    channel: r.channel,
    guard: r.guard,
    status: r.status,
    reason: r.reason,
    created_at: toRfc3339(r.createdAt),
    ip: r.ip,
    method: r.method,
    query: r.query,
    headers: r.headers,
    diagnosis: r.diagnosis ?? null,
  };
}
