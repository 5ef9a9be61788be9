import { exactKey, fieldText, ipHex, ipKey, nameKey, type SearchTerms } from "./query";

/**
 * A hook's document: `text` (free words are looked for in it) and `fields` (one line per field
 * term it can match, `\nname=value\n`), both lower case, so SQLite's candidates, PostgreSQL's LIKE
 * and a plain `includes` agree; `lines` are the fields' names and values, for SQLite's keys; `ip`,
 * the sender's address as ipHex (undefined: the ip is no address), for SQLite's key of it.
 */
export type SearchDoc = { id: string; text: string; fields: string; lines: [name: string, value: string][]; ip?: string };

/** How much of a body is searchable by free words. */
export const TEXT_BODY_BYTES = 1024 * 1024;
/** Field values longer than this cannot be found by a field term (document them). */
export const MAX_FIELD_VALUE = 200;
/** Field lines per hook, at most (the payload's leaves beyond are not indexed). */
export const MAX_FIELDS = 1000;

const decoder = new TextDecoder();

/** The searchable text: the query string, each header as `name: value`, then the body as UTF-8. */
export function searchText(h: { query: string; headers: Record<string, string>; body: Uint8Array }): string {
  const head = Object.entries(h.headers).map(([k, v]) => `${k}: ${v}\n`);
  const body = decoder.decode(h.body.byteLength > TEXT_BODY_BYTES ? h.body.subarray(0, TEXT_BODY_BYTES) : h.body);
  return `${h.query}\n${head.join("")}\n${body}`.toLowerCase().replace(/\0/g, " ");
}

/**
 * Values a payload walk visits, at most: each level of nested arrays doubles the paths (with and
 * without the index), so a small body of deeply nested arrays would otherwise stand for 2^depth.
 */
export const MAX_VISITS = 100_000;

/**
 * Scalars of a payload by dotted path, strings as they are, others as JSON. An array's items are
 * reached by index and also without one (`items.0.sku` and `items.sku`: any item). Keys holding a
 * dot are skipped (no dotted path reaches them). Stops when `emit` answers false, or after
 * MAX_VISITS values.
 */
export function payloadLeaves(payload: unknown, emit: (path: string, value: string) => boolean, path = "", budget = { left: MAX_VISITS }): boolean {
  if (--budget.left < 0) return false;
  if (payload === null || typeof payload !== "object") {
    return path === "" || emit(path, typeof payload === "string" ? payload : JSON.stringify(payload));
  }
  if (Array.isArray(payload)) {
    for (let i = 0; i < payload.length; i++) {
      if (!payloadLeaves(payload[i], emit, `${path}.${i}`, budget) || !payloadLeaves(payload[i], emit, path, budget)) return false;
    }
    return true;
  }
  for (const [key, value] of Object.entries(payload as Record<string, unknown>)) {
    if (key.includes(".") || key === "") continue;
    if (!payloadLeaves(value, emit, path ? `${path}.${key}` : key, budget)) return false;
  }
  return true;
}

/** The document of a hook (`payload` decoded by hooks/payload.ts; `eventType` as caught, "" when unknown). */
export function searchDoc(
  h: { id: string; channel: string; method: string; query: string; ip: string; headers: Record<string, string>; body: Uint8Array; eventType: string },
  payload: Record<string, unknown> | null,
): SearchDoc {
  const lines: [string, string][] = [];
  const add = (name: string, value: string) => {
    if (value.length <= MAX_FIELD_VALUE) lines.push([fieldText(name), fieldText(value)]);
    return lines.length < MAX_FIELDS;
  };
  add("channel", h.channel);
  add("method", h.method);
  add("ip", h.ip);
  if (h.eventType) add("type", h.eventType);
  for (const [k, v] of Object.entries(h.headers)) add(`header.${k}`, v);
  if (payload) payloadLeaves(payload, (path, value) => add(`payload.${path}`, value));
  return { id: h.id, text: searchText(h), fields: `\n${lines.map(([n, v]) => `${n}=${v}`).join("\n")}\n`, lines, ip: ipHex(h.ip) };
}

/**
 * Whether a hook's document holds every word of `terms` in its text and every field needle in its
 * fields: a search's finding, for one hook in memory (SQLite's recheck, a handler's `when`).
 */
export function docHolds(doc: Pick<SearchDoc, "text" | "fields">, terms: SearchTerms): boolean {
  return terms.words.every((w) => doc.text.includes(w)) && terms.fields.every((f) => doc.fields.includes(f));
}

/** Texts longer than this are not searched for each field's value (its words are indexed instead). */
const LOOKUP_CHARS = 64 * 1024;

/**
 * SQLite indexes words (db/sqlite/search-store.ts): the runs of ASCII letters, digits, `_` and
 * non-ASCII characters, as FTS5's `ascii` tokenizer with `tokenchars '_'` cuts text; every other
 * character separates words. One separator (WORD_SEPARATOR) or a run of them (SEPARATORS).
 */
export const WORD_SEPARATOR = /[^0-9a-z_\u0080-\uffff]/;
const SEPARATORS = /[^0-9a-z_\u0080-\uffff]+/;
/**
 * Words longer than MAX_WORD characters are indexed as pieces of MAX_WORD characters every
 * WORD_STEP characters, the last piece ending with the word: any WORD_STEP characters of a long word
 * lie within one piece, and its first piece starts it, its last piece ends it.
 */
export const MAX_WORD = 64;
export const WORD_STEP = 32;

/** The words of `s` (lower case), in order, repeated as they are, long words as their pieces; maybe "" among them. */
export function wordsOf(s: string): string[] {
  const words = s.split(SEPARATORS);
  for (const w of words) if (w.length > MAX_WORD) return words.flatMap(pieces);
  return words;
}

function pieces(w: string): string[] {
  if (w.length <= MAX_WORD) return [w];
  const out: string[] = [];
  for (let i = 0; i + MAX_WORD < w.length; i += WORD_STEP) out.push(w.slice(i, i + MAX_WORD));
  out.push(w.slice(-MAX_WORD));
  return out;
}

/**
 * What SQLite's index holds of a hook: the words of its text, for each field line its exact key
 * (a term `name:value`) and its name's key (a prefix term `name:value*`), and the words of a value
 * the text does not hold already (JSON escapes, form encoding, a body past TEXT_BODY_BYTES, the
 * method, the ip): a prefix term looks for its value in the text's words or here. The payload's
 * values are mostly in the text already, so they are not indexed twice. Words may repeat (FTS5
 * keeps one entry a hook); building them costs less than making them distinct here. A sender's
 * address is also a key of its own (ipKey), for `ip:`.
 */
export function searchTokens(doc: SearchDoc): { words: string[]; keys: string[] } {
  let words = wordsOf(doc.text);
  const keys: string[] = [];
  const look = doc.text.length <= LOOKUP_CHARS;
  let names = "";
  for (const [name, value] of doc.lines) {
    keys.push(exactKey(name, value));
    // Lines of one name follow each other (an array's items, a header): its key once for them.
    if (name !== names) keys.push(nameKey(name)), (names = name);
    if (!look || !doc.text.includes(value)) words = words.concat(wordsOf(value));
  }
  if (doc.ip !== undefined) keys.push(ipKey(doc.ip));
  return { words, keys };
}
