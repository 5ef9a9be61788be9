import { toRfc3339 } from "../lib/clock";
import type { CaughtSnapshot } from "./bus";

const encoder = new TextEncoder();
const bytesOf = (s: string) => encoder.encode(s);

/**
 * Server-Sent Events written as UTF-8 into one growing buffer, for the pieces the streams send.
 *
 * A hook just caught (the bulk of events under load) is written without building a string: its
 * frame is fixed bytes, the id, channel, timestamp and size as ASCII, and the part the sender
 * chose (method, query, content type, address) as JSON encoded once for a run of hooks from the
 * same sender. Made from strings instead, each event cost a microsecond of the catching endpoint's
 * thread in concatenation and encoding.
 */
export function createFrameWriter(epoch: string) {
  let buf = new Uint8Array(64 * 1024);
  let pos = 0;
  const idPrefix = bytesOf(`id: ${epoch}-`);

  function room(n: number): void {
    if (pos + n <= buf.length) return;
    const bigger = new Uint8Array(Math.max(buf.length * 2, pos + n));
    bigger.set(buf.subarray(0, pos));
    buf = bigger;
  }
  /** Only for text known to be ASCII (ids, channel names, timestamps, numbers). */
  function ascii(s: string): void {
    room(s.length);
    for (let i = 0; i < s.length; i++) buf[pos++] = s.charCodeAt(i);
  }
  function bytes(b: Uint8Array): void {
    room(b.length);
    buf.set(b, pos);
    pos += b.length;
  }
  function text(s: string): void {
    // A large text (a whole hook with a big body) is encoded at its exact size, not reserved at three bytes a character.
    if (s.length > 64 * 1024) return bytes(encoder.encode(s));
    room(s.length * 3);
    pos += encoder.encodeInto(s, buf.subarray(pos)).written;
  }

  return {
    /** `id: <epoch>-<seq>` (none without a seq), `event: <event>`, `data: <data>` and a blank line. */
    frame(seq: number | undefined, event: string, data: string): void {
      if (seq !== undefined) {
        bytes(idPrefix);
        ascii(String(seq));
        bytes(NEWLINE);
      }
      text(`event: ${event}\ndata: `);
      text(data);
      bytes(END);
    },
    /**
     * The frame of a hook as caught, with its summary: the same JSON as summaryJson gives for it.
     * `id` and `channel` match their patterns (lowercase letters, digits, `_` and `-`), so they
     * are ASCII and need no escaping.
     */
    caught(seq: number, id: string, channel: string, c: CaughtSnapshot): void {
      bytes(idPrefix);
      ascii(String(seq));
      bytes(CAUGHT_HEAD);
      ascii(id);
      bytes(CAUGHT_CHANNEL);
      ascii(channel);
      bytes(CAUGHT_STATUS);
      bytes(senderJson(c));
      bytes(CAUGHT_TIME);
      ascii(timestamp(c.createdAt));
      bytes(CAUGHT_SIZE);
      ascii(String(c.size));
      bytes(CAUGHT_END);
    },
    size: () => pos,
    /** What was written since the last take, as its own bytes; the buffer is reused. */
    take(): Uint8Array {
      const out = buf.slice(0, pos);
      pos = 0;
      // Grown for a large event: let that memory go rather than keep it for the life of the server.
      if (buf.length > 4 * 1024 * 1024) buf = new Uint8Array(64 * 1024);
      return out;
    },
  };
}

export type FrameWriter = ReturnType<typeof createFrameWriter>;

const END = bytesOf("\n\n");
const NEWLINE = bytesOf("\n");
const CAUGHT_HEAD = bytesOf('\nevent: hook\ndata: {"id":"');
const CAUGHT_CHANNEL = bytesOf('","channel":"');
const CAUGHT_STATUS = bytesOf('","status":"pending",');
const CAUGHT_TIME = bytesOf(',"created_at":"');
const CAUGHT_SIZE = bytesOf('","size":');
const CAUGHT_END = bytesOf("}\n\n");

/** The sender's part of a caught summary, kept for the last sender seen (a burst comes from one). */
let sender = { method: "", query: "", contentType: "", ip: "", json: bytesOf('"method":"","query":"","content_type":"","ip":""') };
function senderJson(c: CaughtSnapshot): Uint8Array {
  if (c.method !== sender.method || c.query !== sender.query || c.contentType !== sender.contentType || c.ip !== sender.ip) {
    const json = `"method":${JSON.stringify(c.method)},"query":${JSON.stringify(c.query)},"content_type":${JSON.stringify(c.contentType)},"ip":${JSON.stringify(c.ip)}`;
    sender = { method: c.method, query: c.query, contentType: c.contentType, ip: c.ip, json: bytesOf(json) };
  }
  return sender.json;
}

/** toRfc3339 of the last millisecond asked again: hooks caught in a burst share their milliseconds. */
let lastMs = NaN;
let lastTime = "";
function timestamp(ms: number): string {
  if (ms !== lastMs) (lastMs = ms), (lastTime = toRfc3339(ms));
  return lastTime;
}
