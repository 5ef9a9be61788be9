/**
 * Whether every field path of a JSON body is already known, answered from the bytes without
 * decoding or parsing the body: one pass, string values skipped by a native search for their
 * closing quote, only the keys sliced. Most hooks of a channel and event type have the fields the
 * ones before them had, so the contract checks (analyse.ts) ask this first and parse the body only
 * when it says no.
 *
 * It never says yes wrongly: the paths it walks are a superset of those `fieldPaths` finds after
 * `JSON.parse` (a duplicate key, a body that is not JSON after all, the paths past `fieldPaths`'
 * limits: more here, never fewer), so "all known" here means all known there. Anything it does not
 * read plainly (a key with an escape or a non-ASCII byte, a nesting deeper than 64, a byte out of
 * place) is a no: the caller then parses the body as before.
 *
 * @example allPathsKnown(bytes('{"id":"evt_1","data":{"n":1}}'), new Set(["id", "data", "data.n"])) // true
 */
export function allPathsKnown(body: Uint8Array, known: ReadonlySet<string>): boolean {
  const s: State = { b: body, pos: skipWs(body, 0), known };
  const c = body[s.pos];
  // Not an object or an array: `fieldPaths` finds nothing in it either.
  if (c !== 0x7b && c !== 0x5b) return true;
  return value(s, "", 0);
}

type State = { b: Uint8Array; pos: number; known: ReadonlySet<string> };

const MAX_DEPTH = 64;
const LATIN1 = Buffer.prototype.latin1Slice as (this: Uint8Array, start: number, end: number) => string;

function skipWs(b: Uint8Array, pos: number): number {
  while (pos < b.length) {
    const c = b[pos]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return pos;
    pos++;
  }
  return pos;
}

/** At a `"`: the index of its closing quote (one not escaped by an odd run of backslashes), or -1. */
function stringEnd(b: Uint8Array, at: number): number {
  let from = at + 1;
  for (;;) {
    const q = b.indexOf(0x22, from);
    if (q < 0) return -1;
    let slashes = 0;
    while (b[q - 1 - slashes] === 0x5c) slashes++;
    if (slashes % 2 === 0) return q;
    from = q + 1;
  }
}

/** Reads one value at `s.pos` (whitespace skipped before it); false when a path is unknown or the bytes are not read plainly. */
function value(s: State, path: string, depth: number): boolean {
  const b = s.b;
  s.pos = skipWs(b, s.pos);
  const c = b[s.pos];
  if (c === 0x22) {
    const end = stringEnd(b, s.pos);
    if (end < 0) return false;
    s.pos = end + 1;
    return true;
  }
  if (c === 0x7b || c === 0x5b) {
    if (depth >= MAX_DEPTH) return false;
    return c === 0x7b ? object(s, path, depth) : array(s, path, depth);
  }
  // A number, true, false or null: up to the next delimiter.
  const start = s.pos;
  let pos = start;
  while (pos < b.length) {
    const d = b[pos]!;
    if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
    pos++;
  }
  s.pos = pos;
  return pos > start;
}

function object(s: State, path: string, depth: number): boolean {
  const b = s.b;
  s.pos = skipWs(b, s.pos + 1);
  if (b[s.pos] === 0x7d) return (s.pos++, true);
  for (;;) {
    if (b[s.pos] !== 0x22) return false;
    const start = s.pos + 1;
    const end = stringEnd(b, s.pos);
    if (end < 0) return false;
    for (let i = start; i < end; i++) if (b[i]! >= 0x80 || b[i] === 0x5c) return false;
    const key = LATIN1.call(b, start, end);
    const p = path ? `${path}.${key}` : key;
    if (!s.known.has(p)) return false;
    s.pos = skipWs(b, end + 1);
    if (b[s.pos] !== 0x3a) return false;
    s.pos++;
    if (!value(s, p, depth + 1)) return false;
    s.pos = skipWs(b, s.pos);
    const d = b[s.pos];
    s.pos++;
    if (d === 0x7d) return true;
    if (d !== 0x2c) return false;
    s.pos = skipWs(b, s.pos);
  }
}

function array(s: State, path: string, depth: number): boolean {
  const b = s.b;
  s.pos = skipWs(b, s.pos + 1);
  if (b[s.pos] === 0x5d) return (s.pos++, true);
  const items = `${path}[]`;
  for (;;) {
    if (!value(s, items, depth + 1)) return false;
    s.pos = skipWs(b, s.pos);
    const d = b[s.pos];
    s.pos++;
    if (d === 0x5d) return true;
    if (d !== 0x2c) return false;
  }
}
