/**
 * What the laptop admits of a hook frame from upstream: everything the catching endpoint would have
 * let through, nothing more. Upstream is another machine, and whoever controls it (or the network
 * in front of a plain http:// one) must not be able to make the laptop store what catching never
 * would: a channel the laptop did not ask for, an id or a time that breaks its reads, a request
 * line or header that no HTTP parser accepts (and that a generated curl or a forward would write
 * out), or more bytes than its limits. Pure: the caller refuses the frame (no acknowledgement) and
 * drops the connection.
 *
 * @example
 * checkFrame(encodeHook(hook), { channel: "stripe", maxBody: 1024, now: Date.now() }) // a RelayedHook, or "id ... is not a lowercase ULID"
 */
import { NAME_PATTERN } from "../config/schema";
import { cleanEventType } from "../hooks/event-type";
import { requestPartsProblem } from "../lib/http-syntax";
import { HOOK_ID_PATTERN } from "../lib/ids";
import { FRAME_OVERHEAD, type RelayedHook } from "./protocol";

/**
 * Headers a frame may carry, in count and in bytes (names and values). Catching's HTTP parser
 * (Bun's) answers 431 to a request of about 200 header lines or a 16 KiB head; a stored hook
 * holds fewer (repeated names joined, cookies dropped), and twice the bytes leaves room for a
 * redacted secret that grew to "[redacted]".
 */
export const RELAY_MAX_HEADERS = 200;
export const RELAY_MAX_HEADER_BYTES = 32 * 1024;
/** A query string's longest (what an export line may hold too). */
export const RELAY_MAX_QUERY = 65_536;
/** A sender address's longest (an IPv6 address with a zone fits). */
export const RELAY_MAX_IP = 64;
/**
 * Catch times admitted: from 2000-01-01 to a day after the laptop's clock (two machines' clocks
 * differ; a day covers any working clock, not a year 33658 that no date format prints).
 */
export const EARLIEST_CATCH = Date.UTC(2000, 0, 1);
export const CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

const ID = new RegExp(HOOK_ID_PATTERN);
const CHANNEL = new RegExp(NAME_PATTERN);
/** What a request target's query holds as catching reads it: visible ASCII (the URL parser escapes the rest; a "#" stays). */
const QUERY = /^[\x21-\x7e]*$/;
const IP = /^[\x21-\x7e]*$/;

export type FrameContext = {
  /** The channel this connection asked for: the only one a frame may name. */
  channel: string;
  /** What upstream's hello announced: a larger body cannot be one of its hooks. */
  announcedMaxBody: number;
  /** This Mailroom's `[hooks] max_body`. */
  maxBody: number;
  /** The laptop's clock (ms). */
  now: number;
};

/**
 * A well-formed hook this Mailroom will not store: its body is within what upstream announced but
 * over this Mailroom's own `[hooks] max_body` (the two configs differ). Not acknowledged (a nack,
 * with the reason): upstream retries it with backoff while the other hooks flow.
 */
export type TooLarge = { id: string; tooLarge: string };

/**
 * The hook a frame carries, a TooLarge, or why the frame is refused (in words, for the log; no
 * part of the frame quoted at length).
 */
export function checkFrame(frame: Uint8Array, ctx: FrameContext): RelayedHook | TooLarge | string {
  // Sizes first, from the length prefix: nothing is parsed of a frame over the limits.
  if (frame.byteLength < 4) return "the frame is shorter than its length prefix";
  const metaLength = new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(0);
  if (metaLength > FRAME_OVERHEAD) return `the frame's header is ${metaLength} bytes (at most ${FRAME_OVERHEAD})`;
  if (4 + metaLength > frame.byteLength) return "the frame is shorter than its header";
  const bodyLength = frame.byteLength - 4 - metaLength;
  if (bodyLength > ctx.announcedMaxBody) return `the body is ${bodyLength} bytes, larger than ${ctx.announcedMaxBody} (the max_body of upstream's hello)`;
  let meta: Record<string, unknown>;
  try {
    meta = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(frame.subarray(4, 4 + metaLength)));
  } catch {
    return "the frame's header is not JSON";
  }
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return "the frame's header is not a JSON object";
  for (const k of ["id", "channel", "method", "query", "ip"]) if (typeof meta[k] !== "string") return `${k} is not a string`;
  const { id, channel, method, query, ip } = meta as { id: string; channel: string; method: string; query: string; ip: string };
  if (channel !== ctx.channel || !CHANNEL.test(channel))
    return `the hook names channel ${JSON.stringify(channel.slice(0, 80))}, not the channel asked for (${ctx.channel})`;
  if (!ID.test(id)) return `id ${JSON.stringify(id.slice(0, 40))} is not a lowercase ULID`;
  const at = meta.created_at;
  if (typeof at !== "number" || !Number.isSafeInteger(at) || at < EARLIEST_CATCH || at > ctx.now + CLOCK_SKEW_MS)
    return `created_at ${String(at).slice(0, 40)} is not a time in ms from 2000 to a day past this machine's clock (${new Date(ctx.now).toISOString()})`;
  const headers = meta.headers;
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) return "headers is not an object";
  const entries = Object.entries(headers);
  if (entries.length > RELAY_MAX_HEADERS) return `${entries.length} headers (at most ${RELAY_MAX_HEADERS})`;
  let bytes = 0;
  for (const [name, value] of entries) {
    if (typeof value !== "string") return `header ${JSON.stringify(name.slice(0, 64))} is not a string`;
    bytes += name.length + value.length;
  }
  if (bytes > RELAY_MAX_HEADER_BYTES) return `the headers hold ${bytes} characters (at most ${RELAY_MAX_HEADER_BYTES})`;
  const parts = requestPartsProblem(method, headers as Record<string, string>);
  if (parts) return parts;
  if (query.length > RELAY_MAX_QUERY || !QUERY.test(query)) return "the query holds a character no request target holds, or is longer than 64 KiB";
  if (ip.length > RELAY_MAX_IP || !IP.test(ip)) return "ip is not an address";
  if (bodyLength > ctx.maxBody) return { id, tooLarge: `the body is ${bodyLength} bytes, larger than this Mailroom's [hooks] max_body (${ctx.maxBody})` };
  return {
    id,
    channel,
    method,
    query,
    headers: headers as Record<string, string>,
    ip,
    createdAt: at,
    // Cleaned as catching cleans it: it is printed on terminals and shown in lists.
    eventType: typeof meta.event_type === "string" ? cleanEventType(meta.event_type) : "",
    verified: typeof meta.verified === "boolean" ? meta.verified : null,
    body: frame.slice(4 + metaLength),
  };
}
