/**
 * Reads a few string fields of a JSON object without parsing it: one pass over the bytes, nested
 * values skipped (strings by a native search for their closing quote), nothing allocated but the
 * strings wanted. The catching endpoint uses it to find a hook's event type (`type`, `event.type`),
 * so its cost is one scan of at most `maxBytes`.
 *
 * @example createFieldReader(["event.type", "type"])(bytes('{"event":{"type":"message"},"type":"event_callback"}'))
 *   // Map { "event.type" => "message", "type" => "event_callback" }
 */
export function createFieldReader(paths: readonly string[], maxBytes = 64 * 1024): (body: Uint8Array) => Map<string, string> {
  const wanted = new Set(paths);
  const prefixes = new Set<string>();
  for (const p of paths) {
    const parts = p.split(".");
    for (let i = 1; i < parts.length; i++) prefixes.add(parts.slice(0, i).join("."));
  }
  const first = paths[0];
  const names = new Set(paths.flatMap((p) => p.split(".")));
  const keys = [...names].map((name) => ({ name, bytes: new TextEncoder().encode(name) }));
  return (body) => {
    const found = new Map<string, string>();
    if (body.byteLength > maxBytes) return found;
    const s: Scanner = { body, pos: 0, wanted, prefixes, found, first, keys };
    try {
      skipWs(s);
      if (body[s.pos] === 0x7b /* { */) readObject(s, "");
    } catch {
      // Not JSON after all, cut short, or the first choice was found: what was found stands.
    }
    return found;
  };
}

/** The fields found of `paths`, by path (a one-off reader; the catching endpoint keeps its readers). */
export function jsonStrings(body: Uint8Array, paths: readonly string[], maxBytes?: number): Map<string, string> {
  return createFieldReader(paths, maxBytes)(body);
}

type Scanner = {
  body: Uint8Array;
  pos: number;
  wanted: Set<string>;
  prefixes: Set<string>;
  found: Map<string, string>;
  /** The most wanted path: once found, nothing else matters. */
  first: string | undefined;
  /** Every name a path is made of, with its bytes: other keys are never decoded. */
  keys: { name: string; bytes: Uint8Array }[];
};

const STOP = new Error("stop");

function skipWs(s: Scanner): void {
  const b = s.body;
  while (s.pos < b.length) {
    const c = b[s.pos]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
    s.pos++;
  }
}

/** At a `"`: the index of the closing quote (one not escaped by an odd run of backslashes). */
function stringEnd(s: Scanner): number {
  const b = s.body;
  let from = s.pos + 1;
  for (;;) {
    const q = b.indexOf(0x22, from);
    if (q < 0) throw STOP;
    let slashes = 0;
    while (b[q - 1 - slashes] === 0x5c) slashes++;
    if (slashes % 2 === 0) return q;
    from = q + 1;
  }
}

const LATIN1 = Buffer.prototype.latin1Slice as (this: Uint8Array, start: number, end: number) => string;
const UTF8 = Buffer.prototype.utf8Slice as (this: Uint8Array, start: number, end: number) => string;

/** The string's text between `from` and `to` (exclusive), escapes decoded. */
function text(b: Uint8Array, from: number, to: number): string {
  let plain = to - from <= 64;
  for (let i = from; plain && i < to; i++) plain = b[i]! < 0x80 && b[i] !== 0x5c;
  // Sliced natively from the body (no view or Buffer made): fromCharCode.apply over a subarray
  // cost 5 times as much on a body just read, and a string built char by char is a rope that the
  // next regular expression has to flatten.
  if (plain) return LATIN1.call(b, from, to);
  const raw = UTF8.call(b, from, to);
  return raw.includes("\\") ? JSON.parse(`"${raw}"`) : raw;
}

function readString(s: Scanner): string {
  const start = s.pos;
  const end = stringEnd(s);
  s.pos = end + 1;
  return text(s.body, start + 1, end);
}

/** A key: one of the names paths are made of, or undefined (then it is skipped without decoding). */
function readKey(s: Scanner): string | undefined {
  const b = s.body;
  const start = s.pos + 1;
  const end = stringEnd(s);
  s.pos = end + 1;
  for (const k of s.keys) {
    if (k.bytes.length !== end - start) continue;
    let same = true;
    for (let i = 0; same && i < k.bytes.length; i++) same = b[start + i] === k.bytes[i];
    if (same) return k.name;
  }
  // An escaped key may still spell a name.
  for (let i = start; i < end; i++) if (b[i] === 0x5c) return text(b, start, end);
  return undefined;
}

/** Skips one value of any kind, nested ones counted by brackets (strings skipped as strings). */
function skipValue(s: Scanner): void {
  const b = s.body;
  let depth = 0;
  while (s.pos < b.length) {
    const c = b[s.pos]!;
    if (c === 0x22) {
      s.pos = stringEnd(s) + 1;
      if (depth === 0) return;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      s.pos++;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return;
      s.pos++;
      if (--depth === 0) return;
    } else if (depth === 0 && c === 0x2c) return;
    else s.pos++;
  }
}

function readObject(s: Scanner, path: string): void {
  s.pos++; // {
  for (;;) {
    skipWs(s);
    if (s.body[s.pos] === 0x7d) return void s.pos++;
    if (s.body[s.pos] !== 0x22) throw STOP;
    const key = readKey(s);
    skipWs(s);
    if (s.body[s.pos] !== 0x3a /* : */) throw STOP;
    s.pos++;
    skipWs(s);
    const full = key === undefined ? undefined : path === "" ? key : `${path}.${key}`;
    const c = s.body[s.pos];
    if (full === undefined) skipValue(s);
    else if (c === 0x22 && s.wanted.has(full) && !s.found.has(full)) {
      s.found.set(full, readString(s));
      if (full === s.first) throw STOP;
    } else if (c === 0x7b && s.prefixes.has(full)) readObject(s, full);
    else skipValue(s);
    skipWs(s);
    const next = s.body[s.pos];
    if (next === 0x2c) s.pos++;
    else if (next === 0x7d) return void s.pos++;
    else throw STOP;
  }
}
