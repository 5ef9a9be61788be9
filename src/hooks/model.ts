import { t, type Static } from "elysia";
import { NAME_PATTERN } from "../config/schema";
import { toRfc3339 } from "../lib/clock";
import { HOOK_ID_PATTERN } from "../lib/ids";
import type { ChannelRow, EventRow, RawHook } from "./store";

/** The spec's resources, exactly: these models are the only shapes the management API writes. */

const strict = { additionalProperties: false } as const;
export const ChannelName = t.String({ maxLength: 64, pattern: NAME_PATTERN });
export const HookId = t.String({ pattern: HOOK_ID_PATTERN });
export const HookStatus = t.Union([t.Literal("pending"), t.Literal("handled"), t.Literal("failed"), t.Literal("discarded")]);
const Count = t.String({ pattern: "^[0-9]+$" });

export const ChannelStats = t.Object({ pending: Count, handled: Count, failed: Count, discarded: Count }, strict);
export const Channel = t.Object(
  { name: ChannelName, paused: t.Boolean(), stats: ChannelStats, guards: t.Array(ChannelName, { uniqueItems: true }) },
  strict,
);

export const Event = t.Object(
  {
    kind: t.Union([t.Literal("handled"), t.Literal("discarded"), t.Literal("retried"), t.Literal("failed")]),
    actor: t.String(),
    message: t.String(),
    created_at: t.String(),
  },
  strict,
);

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
 * What hook reads answer: the Hook model, documented but not checked on the way out (Elysia's
 * `noValidate`). The rows are mapped by toWireHook, which is typed against Hook; checking again
 * costs the one thread that also catches about 0.1 s per MiB of body (the `byte` format runs a
 * regex over the base64 text), and at 6 MiB the regex gives up, failing the read with a 500 that
 * logged the whole hook (bench/hook-reads.ts).
 */
export const HookOut = t.Object(Hook.properties, { ...strict, noValidate: true });
export const HookListOut = t.Array(Hook, { noValidate: true });

export const ErrorBody = t.Object({ code: t.Integer(), message: t.String(), details: t.Array(t.Unknown()) }, strict);
export const Empty = t.Object({}, strict);
/** For operations that take no query parameters / no body: anything given is an unknown field. */
export const NoQuery = t.Object({}, { ...strict, error: "this operation takes no query parameters" });
export const NoBody = t.Object({}, { ...strict, error: "this operation takes no request body" });

export type ChannelWire = Static<typeof Channel>;
export type HookWire = Static<typeof Hook>;
export type EventWire = Static<typeof Event>;

export function toWireChannel(c: ChannelRow): ChannelWire {
  const s = c.stats;
  return {
    name: c.name,
    paused: c.paused,
    stats: { pending: String(s.pending), handled: String(s.handled), failed: String(s.failed), discarded: String(s.discarded) },
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

export function toWireHook(h: RawHook, events: readonly EventRow[], payload: Record<string, unknown> | null): HookWire {
  const wire: HookWire = {
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
    events: events.map((e) => ({
      kind: e.kind as EventWire["kind"],
      actor: e.actor,
      message: e.message,
      created_at: toRfc3339(e.createdAt),
    })),
  };
  if (h.finalizedAt !== null) wire.finalized_at = toRfc3339(h.finalizedAt);
  return wire;
}
