/**
 * Caught rows packed for the index thread (threaded.ts hands them over, db/sqlite/search-thread.ts unpacks them):
 * the bodies copied one after the other into one ArrayBuffer, which the message transfers rather
 * than copies, and every text field of every row joined into one string. The serving thread then
 * makes three objects per batch (the buffer, the string and the message) instead of a row object
 * per hook, and the message's structured clone copies one string, not a graph of rows.
 *
 * Layout of the buffer: a Uint32Array of FIELDS + 1 numbers per row (the UTF-16 length of each text
 * field, in FIELDS' order, then the body's byte length), then the bodies.
 */
import type { Source } from ".";

const FIELDS = 7;
const PER_ROW = FIELDS + 1;

export type Pack = { buffer: ArrayBuffer; text: string; count: number };

/** Packs rows; headers given as an object (an imported hook's) cross over as their JSON. */
export function pack(rows: readonly Source[]): Pack {
  const count = rows.length;
  let bodyBytes = 0;
  for (let i = 0; i < count; i++) bodyBytes += rows[i]!.body.byteLength;
  const head = count * PER_ROW * 4;
  // Not zero-filled (a third of the hand-off's cost on 1 KiB bodies, measured): every byte is
  // written below, the lengths then the bodies.
  const bytes = Bun.allocUnsafe(head + bodyBytes);
  const buffer = bytes.buffer as ArrayBuffer;
  const lengths = new Uint32Array(buffer, 0, count * PER_ROW);
  const parts = new Array<string>(count * FIELDS);
  let at = head;
  for (let i = 0, l = 0, p = 0; i < count; i++) {
    const r = rows[i]!;
    lengths[l++] = (parts[p++] = r.id).length;
    lengths[l++] = (parts[p++] = r.channel).length;
    lengths[l++] = (parts[p++] = r.method).length;
    lengths[l++] = (parts[p++] = r.query).length;
    lengths[l++] = (parts[p++] = r.ip).length;
    lengths[l++] = (parts[p++] = typeof r.headers === "string" ? r.headers : JSON.stringify(r.headers)).length;
    lengths[l++] = (parts[p++] = r.eventType).length;
    lengths[l++] = r.body.byteLength;
    bytes.set(r.body, at);
    at += r.body.byteLength;
  }
  return { buffer, text: parts.join(""), count };
}

/** The rows of a pack; their bodies are views of its buffer (nothing is copied). */
export function unpack({ buffer, text, count }: Pack): Source[] {
  const lengths = new Uint32Array(buffer, 0, count * PER_ROW);
  const rows = new Array<Source>(count);
  let at = count * PER_ROW * 4;
  let t = 0;
  const field = (n: number) => text.slice(t, (t += n));
  for (let i = 0, l = 0; i < count; i++) {
    const id = field(lengths[l++]!);
    const channel = field(lengths[l++]!);
    const method = field(lengths[l++]!);
    const query = field(lengths[l++]!);
    const ip = field(lengths[l++]!);
    const headers = field(lengths[l++]!);
    const eventType = field(lengths[l++]!);
    const size = lengths[l++]!;
    rows[i] = { id, channel, method, query, ip, headers, eventType, body: new Uint8Array(buffer, at, size) };
    at += size;
  }
  return rows;
}
