/**
 * The relay's wire, over one WebSocket per listener (docs/relay.md):
 *
 * - upstream -> laptop, binary: one hook per message: a 4-byte big-endian length, that many bytes
 *   of JSON (id, channel, method, query, headers, ip, created_at, event_type), then the exact body bytes.
 * - both ways, text: JSON control messages (Control below).
 *
 * Pure functions. The laptop reads a hook frame with relay/frame-check.ts, which also checks it.
 */
import type { RawHook } from "../hooks/store";

/** Where the relay endpoint lives (on both listeners): `${RELAY_PATH}/channels/{name}`. */
export const RELAY_PATH = "/relay/v1";
/** Seconds between heartbeats, each way; a side that hears nothing for RELAY_SILENCE_MS closes. */
export const HEARTBEAT_MS = 5_000;
export const RELAY_SILENCE_MS = 20_000;
/** Room for a frame's JSON beside its body, within the WebSocket's largest message. */
export const FRAME_OVERHEAD = 1024 * 1024;
/** Close codes: the relay is another listener's (4409), the key no longer opens it (4403). */
export const CLOSE_BUSY = 4409;
export const CLOSE_REFUSED = 4403;

export type Control =
  /** upstream: the relay is this listener's; `waiting` hooks are queued for it, the oldest `lag_seconds` old (older versions: no lag). */
  | { type: "hello"; waiting: number; channel: string; max_body: number; lag_seconds?: number }
  /** upstream: everything waiting when the laptop connected has been acknowledged. */
  | { type: "caught_up" }
  /** both ways, every HEARTBEAT_MS; upstream's says what waits for the listener (queued or in flight) and the oldest's age (older versions: neither). */
  | { type: "heartbeat"; waiting?: number; lag_seconds?: number }
  /** laptop: these hooks are committed to its store. */
  | { type: "ack"; ids: string[] }
  /** laptop: this hook could not be stored (upstream tries again later). */
  | { type: "nack"; id: string; error: string }
  /** upstream: why it is about to close the connection (a close frame's reason holds 123 bytes only). */
  | { type: "error"; message: string };

/** A hook as it travels: the upstream hook's own id, request, sender address and catch time. */
export type RelayedHook = Pick<RawHook, "id" | "channel" | "method" | "query" | "headers" | "body" | "ip" | "createdAt" | "eventType" | "verified">;

export function encodeHook(hook: RelayedHook): Uint8Array {
  const meta = new TextEncoder().encode(
    JSON.stringify({
      id: hook.id,
      channel: hook.channel,
      method: hook.method,
      query: hook.query,
      headers: hook.headers,
      ip: hook.ip,
      created_at: hook.createdAt,
      event_type: hook.eventType,
      // Whether a guard upstream authenticated its sender (absent when unknown there).
      ...(hook.verified != null ? { verified: hook.verified } : {}),
    }),
  );
  const out = new Uint8Array(4 + meta.byteLength + hook.body.byteLength);
  new DataView(out.buffer).setUint32(0, meta.byteLength);
  out.set(meta, 4);
  out.set(hook.body, 4 + meta.byteLength);
  return out;
}

/** A control message, or undefined for text that is not one (ignored: a newer peer may send more). */
export function parseControl(text: string): Control | undefined {
  try {
    const value = JSON.parse(text) as Control;
    return typeof value === "object" && value !== null && typeof value.type === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The relay's handler name for a key and a channel: its attempts are listed under it. */
export const relayHandlerName = (label: string, channel: string) => `relay:${label}:${channel}`;
