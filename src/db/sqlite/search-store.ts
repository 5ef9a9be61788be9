import type { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { statementCache } from "./statements";
import { currentTransaction, sqliteTransactor } from "../transactor";
import { ulidFloor, ulidTime } from "../../lib/ids";
import { hookIds } from "./hook-ids";
import { MAX_FIELD_VALUE, MAX_WORD, searchTokens, TEXT_BODY_BYTES, WORD_SEPARATOR, WORD_STEP, type SearchDoc } from "../../search/document";
import {
  exactKey,
  fieldText,
  hasTerms,
  ipKey,
  nameKey,
  needlesOf,
  onlyNeedles,
  timeBound,
  topBounds,
  type FieldTerm,
  type QueryNode,
  type SearchTerms,
} from "../../search/query";
import { HOOK_STATUSES, type HookStatus } from "../../hooks/status";
import { eventTypeCondition } from "../event-type";
import type { SearchQuery, SearchStore } from "../../search/store";
import { createVocabularyPruner, phrase } from "./search-vocabulary";
import { createRecheck, type RecheckFilters } from "./search-recheck";
import { decide, wordLeaves } from "./search-decide";

/**
 * FTS5 rowids order the index by time: the id's millisecond since EPOCH times PER_MS, plus a
 * counter within the millisecond. FTS5 walks a match in rowid order, so a page of the newest
 * matches reads only them. Rowids stay within JavaScript's exact integers (2^53) for ids of
 * 1990 to 2059; hooks with other times are not indexed.
 */
const PER_MS_BITS = 13;
const PER_MS = 1 << PER_MS_BITS;
const EPOCH = Date.UTC(2025, 0, 1);
const SPAN_MS = Math.floor(Number.MAX_SAFE_INTEGER / PER_MS) - 1;
/** Hooks of a tag (within a search's bounds) up to which a search with words reads the tag's hooks (tagFirst). */
const TAG_FIRST_DEFAULT = 20_000;
/** A tag's rows (within a count's bounds) up to which a count reads them all: intersected with a status's, or filtering candidates. */
const DRIVE_MAX_DEFAULT = 200_000;
/** Candidates a count checks per statement (countWalk). */
const COUNT_CHUNK_DEFAULT = 4096;
/**
 * The text index's candidates a count scans (about 0.1 µs each, in SQLite) rather than check one of
 * a tag's hooks (about 3 µs when its body holds the words, 10 when it lacks them): a chunk of the
 * tag's hooks is intersected with the candidates in its span when they are at most this many per hook.
 */
const SCAN_PER_CHECK_DEFAULT = 40;
/** The share of the hooks past which a word's candidates are not read to prove it absent (byIndex). */
const DENSE = 0.8;
/** Where a count's ids come from: the query's candidates in the text index, hooks it holds, or any hooks. */
type Source = "candidates" | "indexed" | "hooks";
/** The first rowid of a millisecond (clamped: bounds of a search may lie anywhere). */
const rowOf = (ms: number) => Math.max(-SPAN_MS, Math.min(SPAN_MS, Math.ceil(ms) - EPOCH)) * PER_MS;

const encoder = new TextEncoder();

/** An FTS5 string: double quotes doubled. */

/** The distinct trigrams of a needle, by code point, as FTS5's trigram tokenizer cuts text. */
export function trigrams(needle: string): string[] {
  const cps = Array.from(needle);
  const out = new Set<string>();
  for (let i = 0; i + 3 <= cps.length; i++) out.add(cps[i]! + cps[i + 1]! + cps[i + 2]!);
  return [...out];
}

/**
 * Addresses an `ip:` term asks the index for, at most; past that its hooks are read whole, as
 * before the index held addresses. The candidates of many keys cost more to read than the hooks
 * (1,000,000 hooks, every match read, as a bulk job's dry run does: a /26 of 64 addresses in 4.98 s
 * from its keys against 7.26 s read whole; a /24 of 256 in 50.7 to 51.8 s against 8.06 to 8.46 s;
 * docs/benchmarks.md, "ip: from the index's addresses").
 */
const IP_KEYS = 64;
/** Words of the vocabulary a needle's group may name, at most: a needle found in more is not asked of the index. */
export const MAX_GROUP_WORDS = 512;
/** Vocabulary words read for one lookup by trigrams, at most (before they are checked). */
const MAX_GRAM_ROWS = 4096;

/**
 * The vocabulary's words that a needle's piece may be part of (undefined: too many to ask, or a
 * piece too short to look up): those starting with `piece`, or (`containing`) holding it anywhere
 * or (`ending`) ending with it.
 */
export type WordLookup = (piece: string, how: "starting" | "containing" | "ending") => string[] | undefined;
/**
 * The senders' addresses indexed (ipHex) between `low` and `high`, for `ip:` (undefined: more than
 * IP_KEYS, too many to ask for one by one).
 */
export type IpLookup = (low: string, high: string) => string[] | undefined;

/**
 * The groups of words a hook holding `needle` must hold one of (pushed to `out`). The needle's
 * pieces between separators: a piece before the first separator ends a word of the text, one after
 * the last starts a word, those between are whole words; a needle without a separator is within a
 * word. A long word is indexed as its pieces (document.ts wordsOf): a whole word by its first
 * piece, the start of a word by its first MAX_WORD characters, its end or inside by WORD_STEP
 * characters. A piece the vocabulary cannot narrow (too short, or in too many words) asks nothing:
 * the candidates stay a superset, the check decides.
 */
export function needleGroups(needle: string, lookup: WordLookup, out: string[][]): void {
  const parts = needle.split(WORD_SEPARATOR);
  const push = (words: string[] | undefined) => words && out.push(words);
  if (parts.length === 1) return void push(lookup(wholeEnd(needle.slice(0, WORD_STEP)), "containing"));
  // A whole word's first piece is cut where the index cuts it (wordsOf), half a character or not.
  for (const whole of parts.slice(1, -1)) if (whole) out.push([whole.slice(0, MAX_WORD)]);
  const last = parts[parts.length - 1]!;
  if (last) push(lookup(wholeEnd(last.slice(0, MAX_WORD)), "starting"));
  const first = parts[0]!;
  if (first) push(lookup(wholeStart(first.slice(-WORD_STEP)), "ending"));
}

/**
 * A piece cut by UTF-16 units without the half of a character (an emoji's surrogate) that the
 * cut left at its end, or at its start: the index holds that character whole there, so a piece
 * ending (starting) with its half is in no word, and the needle would be taken for one no hook
 * holds. Shorter, the piece is still within the words that hold the needle.
 */
const wholeEnd = (piece: string) => (/[\uD800-\uDBFF]$/.test(piece) ? piece.slice(0, -1) : piece);
const wholeStart = (piece: string) => (/^[\uDC00-\uDFFF]/.test(piece) ? piece.slice(1) : piece);

/** The groups of words a hook holding a field term's line holds one of (pushed to `out`): its key, or its name's key and its value's words. */
function fieldGroups(t: FieldTerm, lookup: WordLookup, out: string[][]): void {
  if (!t.prefix) return void out.push([exactKey(t.name, t.value)]);
  out.push([nameKey(t.name)]);
  if (t.value) needleGroups(t.value, lookup, out);
}

/** The groups ANDed as FTS5 (undefined: none; null: a group of no word, which no indexed hook holds). */
function groupsExpression(groups: string[][]): string | undefined | null {
  if (groups.some((g) => g.length === 0)) return null;
  if (groups.length === 0) return undefined;
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const g of groups) {
    const part = g.length === 1 ? phrase(g[0]!) : `(${g.map(phrase).join(" OR ")})`;
    if (!seen.has(part)) seen.add(part), parts.push(part);
  }
  return parts.join(" AND ");
}

/**
 * The FTS5 query of a subtree's candidates, for an OR (or parentheses) ANDed at the top: a word's
 * or a field term's groups; an `ip:` term's keys of the addresses its block holds (`ips`); the AND
 * of its items' queries; the OR of its branches' when every branch has one (a branch no indexed
 * hook can match left out). Undefined when it cannot narrow (a NOT, another hook term, a needle
 * that asks nothing, a block of more than IP_KEYS addresses, in a branch); null when no indexed
 * hook matches.
 */
export function treeExpression(node: QueryNode, lookup: WordLookup, ips?: IpLookup): string | undefined | null {
  const groups: string[][] = [];
  switch (node.kind) {
    case "cidr": {
      // The keys of the addresses the block holds: a hook whose ip is in it holds one of them.
      const hexes = ips?.(node.low, node.high);
      if (hexes === undefined) return undefined;
      groups.push(hexes.map(ipKey));
      return groupsExpression(groups);
    }
    case "word":
      needleGroups(node.word, lookup, groups);
      return groupsExpression(groups);
    case "field":
      fieldGroups(node.term, lookup, groups);
      return groupsExpression(groups);
    case "and": {
      const parts = node.items.map((n) => treeExpression(n, lookup, ips));
      if (parts.includes(null)) return null;
      const asked = parts.filter((p) => p !== undefined);
      return asked.length === 0 ? undefined : asked.map((p) => `(${p})`).join(" AND ");
    }
    case "or": {
      const parts = node.items.map((n) => treeExpression(n, lookup, ips));
      if (parts.includes(undefined)) return undefined;
      const asked = parts.filter((p) => p !== null);
      return asked.length === 0 ? null : asked.map((p) => `(${p})`).join(" OR ");
    }
    default:
      return undefined;
  }
}

/**
 * The FTS5 query of a search's candidates (undefined: nothing to ask the index; null: no hook can
 * match, a needle's piece being in no word indexed): for every word, the words of the vocabulary
 * it may be in (needleGroups); for every exact field term, its key; for every prefix term, its
 * name's key and its value as a word (search/document.ts searchTokens); for an OR ANDed at the
 * top, the union of its branches' candidates, and for an `ip:` ANDed at the top, the keys of the
 * addresses its block holds (treeExpression). A hook that matches holds a word of
 * each group, so the candidates include every match; each is checked against its document. A
 * query with such candidates finds only the hooks the index holds.
 */
export function matchExpression(terms: SearchTerms, lookup: WordLookup, channel?: string, eventType?: string, ips?: IpLookup): string | undefined | null {
  const groups: string[][] = [];
  for (const w of terms.words) needleGroups(w, lookup, groups);
  for (const t of terms.terms) fieldGroups(t, lookup, groups);
  const node = terms.node;
  const trees: string[] = [];
  for (const n of node ? (node.kind === "and" ? node.items : [node]) : []) {
    if (n.kind !== "or" && n.kind !== "and" && n.kind !== "cidr") continue;
    const tree = treeExpression(n, lookup, ips);
    if (tree === null) return null;
    if (tree !== undefined) trees.push(`(${tree})`);
  }
  if (!hasTerms(terms) && trees.length === 0) return undefined;
  const fields: FieldTerm[] = channel === undefined ? [] : [{ name: "channel", value: fieldText(channel), prefix: false }];
  // An event type asked exactly is also a `type:` term, lower case: a superset the check narrows.
  // A prefix is left to the check: "*" matches hooks of no known type, which have no `type` line
  // (and a type whose lower case passes MAX_FIELD_VALUE has none either).
  if (eventType !== undefined && !eventType.endsWith("*")) {
    const type = fieldText(eventType);
    if (type.length <= MAX_FIELD_VALUE) fields.push({ name: "type", value: type, prefix: false });
  }
  for (const t of fields) fieldGroups(t, lookup, groups);
  const needles = groupsExpression(groups);
  if (needles === null) return null;
  const parts = [...(needles === undefined ? [] : [needles]), ...trees];
  return parts.length === 0 ? undefined : parts.join(" AND ");
}

/** The string just above every string starting with `s` (its last code point's successor), or undefined. */
function above(s: string): string | undefined {
  const cps = Array.from(s);
  const last = cps.pop()!.codePointAt(0)!;
  return last >= 0x10ffff ? undefined : cps.join("") + String.fromCodePoint(last + 1);
}

/**
 * Words a store remembers as being in the vocabulary (two generations of up to this many): only
 * the others are looked for there when a hook is indexed. A word the vocabulary's prune removes
 * is forgotten first (search-vocabulary.ts).
 */
const KNOWN_WORDS = 200_000;
/** Senders' addresses a store remembers as being in search_ips (the others are upserted when a hook is indexed). */
const KNOWN_IPS = 10_000;

/**
 * A query's tree as SQL over `hooks h`, when every term of it is a hook column (its meaning in
 * memory: search/query.ts holdsHookTerm; PostgreSQL's: db/pg/search-store.ts hookTermSql); undefined
 * when one is not (words and field terms are in the text index, `ip:` is compared in memory).
 * Every condition is true or false, never NULL, so NOT reads as it does in memory.
 */
export function columnSql(node: QueryNode, arg: (v: string | number) => string, now: number): string | undefined {
  switch (node.kind) {
    case "and":
    case "or": {
      if (node.items.length === 0) return node.kind === "and" ? "1" : "0";
      const parts = node.items.map((n) => columnSql(n, arg, now));
      return parts.every((p) => p !== undefined) ? `(${parts.join(` ${node.kind.toUpperCase()} `)})` : undefined;
    }
    case "not": {
      const inner = columnSql(node.item, arg, now);
      return inner === undefined ? undefined : `NOT ${inner}`;
    }
    case "status":
      return `h.status = ${arg(node.value)}`;
    case "tag":
      return `EXISTS (SELECT 1 FROM hook_tags tg WHERE tg.hook_id = h.id AND tg.tag = ${arg(node.value)})`;
    case "has":
      return node.value === "refusal"
        ? "EXISTS (SELECT 1 FROM hook_marks mk WHERE mk.hook_id = h.id AND mk.kind = 'refusal')"
        : "EXISTS (SELECT 1 FROM attempts a WHERE a.hook_id = h.id)";
    case "unread":
      return `NOT EXISTS (SELECT 1 FROM hook_reads rd WHERE rd.user_id = ${arg(node.reader ?? "")} AND rd.hook_id = h.id)`;
    case "verified":
      return `h.verified IS ${node.value ? 1 : 0}`;
    case "size":
      return `length(h.body) ${node.op} ${arg(node.bytes)}`;
    case "time":
      return `h.id ${node.op} ${arg(ulidFloor(timeBound(node, now)))}`;
    default:
      return undefined;
  }
}

/** The id bounds of a query's `after`, `since` and `until` (ids sort by their time). */
export function idBounds(q: SearchQuery): { below?: string; fromMs?: number; beforeMs?: number } {
  return { below: q.after, fromMs: q.since, beforeMs: q.until };
}

/** A deferred transaction around `fn` (whose statements all run before its first await). */
const ownTransaction = (sql: Database) => async (fn: () => Promise<void>) => {
  sql.run("BEGIN");
  try {
    await fn();
    sql.run("COMMIT");
  } catch (error) {
    if (sql.inTransaction) sql.run("ROLLBACK");
    throw error;
  }
};

/**
 * SQLite's side: the FTS5 table `search_index`, and `search_rows` from its rowids to hook ids, in
 * the index's own file attached as `search` (search-index-file.ts) to `sql`, whose main database holds the
 * hooks. `ownWrites`: the connection writes nothing but the index (the index thread), so a batch is
 * a plain deferred transaction that locks the index file only; else batches join the connection's
 * transactor like every other write.
 */
export function createSearchStore(
  conn: Database | { $client: Database },
  opts: {
    ownWrites?: boolean;
    /** COUNT_CHUNK, TAG_FIRST, DRIVE_MAX and SCAN_PER_CHECK (tests change them, so that a small corpus takes every path). */
    countChunk?: number;
    tagFirst?: number;
    driveMax?: number;
    scanPerCheck?: number;
    /** Hooks purged before the vocabulary is pruned, at least (PRUNE_AFTER_PURGED; tests lower it). */
    pruneAfter?: number;
  } = {},
): SearchStore {
  const sql: Database = "$client" in conn ? conn.$client : conn;
  const q = statementCache(sql);
  const transactor = sqliteTransactor(sql);
  const write = opts.ownWrites ? ownTransaction(sql) : transactor.transaction;
  // Prepared once here: indexing, which runs between catches, prepares nothing.
  const reserve = sql.prepare("SELECT max(n) AS n FROM search.search_rows WHERE n >= ? AND n < ?");
  // The hooks are not looked up: writing the index reads nothing from the data file (no read
  // transaction on it per batch beside the catching writer).
  const claim = sql.prepare("INSERT INTO search.search_rows (n, hook_id) VALUES (?, ?) ON CONFLICT (hook_id) DO NOTHING");
  const put = sql.prepare("INSERT INTO search.search_index (rowid, words) VALUES (?, ?)");
  const addWord = sql.prepare("INSERT INTO search.search_words (word) VALUES (?) ON CONFLICT (word) DO NOTHING RETURNING id");
  const addGrams = sql.prepare("INSERT INTO search.search_word_grams (rowid, word) VALUES (?, ?)");
  const addIp = sql.prepare("INSERT INTO search.search_ips (hex) VALUES (?) ON CONFLICT (hex) DO NOTHING");
  const recheck = createRecheck(sql);
  /** Words known to be in the vocabulary (committed): the newer generation, and the one before. */
  let known = new Set<string>();
  let knownBefore = new Set<string>();
  const isKnown = (w: string) => known.has(w) || knownBefore.has(w);
  const remember = (words: Iterable<string>) => {
    for (const w of words) {
      if (known.size >= KNOWN_WORDS) (knownBefore = known), (known = new Set());
      known.add(w);
    }
  };
  /** Addresses known to be in search_ips (committed); forgotten all at once past KNOWN_IPS. */
  let knownIps = new Set<string>();
  const vocabulary = createVocabularyPruner(q, {
    after: opts.pruneAfter,
    forget(words, hexes) {
      for (const w of words) known.delete(w), knownBefore.delete(w);
      for (const hex of hexes) knownIps.delete(hex);
    },
  });

  /** The vocabulary's words a needle's piece may be part of (needleGroups). */
  const lookup: WordLookup = (piece, how) => {
    if (how === "starting") {
      const end = above(piece);
      const text = `SELECT word FROM search.search_words WHERE word >= ?${end === undefined ? "" : " AND word < ?"} ORDER BY word LIMIT ?`;
      const words = (q(text).values(...(end === undefined ? [piece] : [piece, end]), MAX_GROUP_WORDS + 1) as [string][]).map(([w]) => w);
      return words.length > MAX_GROUP_WORDS ? undefined : words;
    }
    const grams = trigrams(piece);
    if (grams.length === 0) return undefined;
    const rows = q(`SELECT w.word FROM search.search_word_grams g JOIN search.search_words w ON w.id = g.rowid
      WHERE g.search_word_grams MATCH ? LIMIT ?`).values(grams.map(phrase).join(" AND "), MAX_GRAM_ROWS + 1) as [string][];
    if (rows.length > MAX_GRAM_ROWS) return undefined;
    const words = rows.map(([w]) => w).filter((w) => (how === "ending" ? w.endsWith(piece) : w.includes(piece)));
    return words.length > MAX_GROUP_WORDS ? undefined : words;
  };
  const ips: IpLookup = (low, high) => {
    const hexes = (q("SELECT hex FROM search.search_ips WHERE hex BETWEEN ? AND ? ORDER BY hex LIMIT ?").values(low, high, IP_KEYS + 1) as [string][]).map(
      ([h]) => h,
    );
    return hexes.length > IP_KEYS ? undefined : hexes;
  };
  const COUNT_CHUNK = opts.countChunk ?? COUNT_CHUNK_DEFAULT;
  const TAG_FIRST = opts.tagFirst ?? TAG_FIRST_DEFAULT;
  const DRIVE_MAX = opts.driveMax ?? DRIVE_MAX_DEFAULT;
  const SCAN_PER_CHECK = opts.scanPerCheck ?? SCAN_PER_CHECK_DEFAULT;

  /**
   * The plain list's filters and the time bounds, newest first, when there is no needle: index
   * ranges only (hook-ids.ts), each read up to its LIMIT. `below` overrides `after`.
   */
  function plain(query: SearchQuery, below?: string): string[] {
    const b = idBounds(query);
    let after = below ?? b.below;
    if (b.beforeMs !== undefined) {
      const until = ulidFloor(Math.ceil(b.beforeMs));
      after = after === undefined || until < after ? until : after;
    }
    const from = b.fromMs !== undefined ? ulidFloor(Math.ceil(b.fromMs)) : undefined;
    if (after !== undefined && from !== undefined && after <= from) return [];
    return hookIds(q, { channel: query.channel, status: query.status, eventType: query.eventType, after, from, limit: query.limit });
  }

  /**
   * The index ranges of the plain filters, for a count (which reads them in any order): one per
   * channel and status, where the plain list merges a channel's statuses or a status's channels
   * newest first (reading `limit` of each for a page of `limit`); the primary key's without either.
   */
  function ranges(query: SearchQuery): { channel?: string; status?: HookStatus }[] {
    const { channel, status } = query;
    if (channel !== undefined && status !== undefined) return [{ channel, status }];
    if (channel !== undefined) return HOOK_STATUSES.map((s) => ({ channel, status: s }));
    if (status !== undefined) return (q(`SELECT name FROM channels WHERE ${status} > 0`).values() as [string][]).map(([name]) => ({ channel: name, status }));
    return [{}];
  }

  /**
   * Ids of hooks carrying `tag` (or, `marks`, the mark of that kind: hook_marks), newest first,
   * within the query's bounds (the tag or mark index's range), of the query's status and channel
   * when it has them (each row's hook read by its key: a range of the tag, never the status's hooks).
   */
  function tagged(query: SearchQuery, tag: string, below?: string, marks = false): string[] {
    const b = idBounds(query);
    let after = below ?? b.below;
    if (b.beforeMs !== undefined) {
      const until = ulidFloor(Math.ceil(b.beforeMs));
      after = after === undefined || until < after ? until : after;
    }
    const from = b.fromMs !== undefined ? ulidFloor(Math.ceil(b.fromMs)) : "";
    const args: (string | number)[] = [tag, from];
    let text = `SELECT t.hook_id FROM ${marks ? "hook_marks" : "hook_tags"} t`;
    if (query.status !== undefined || query.channel !== undefined) text += " CROSS JOIN hooks h ON h.id = t.hook_id";
    text += ` WHERE t.${marks ? "kind" : "tag"} = ? AND t.hook_id >= ?`;
    if (after !== undefined) (text += " AND t.hook_id < ?"), args.push(after);
    if (query.status !== undefined) (text += " AND h.status = ?"), args.push(query.status);
    if (query.channel !== undefined) (text += " AND h.channel = ?"), args.push(query.channel);
    text += " ORDER BY t.hook_id DESC LIMIT ?";
    return (q(text).values(...args, query.limit) as [string][]).map(([id]) => id);
  }

  /**
   * Whether a query with needles and a tag ANDed at the top is read along the tag rather than the
   * text index: when at most TAG_FIRST hooks carry the tag within its bounds (counted on the tag's
   * index alone), reading them with their status costs less than walking the text index's
   * candidates, which for a common word are most hooks of the range.
   */
  function tagFirst(query: SearchQuery, tag: string, marks = false): boolean {
    return tagged({ ...query, status: undefined, channel: undefined, limit: TAG_FIRST + 1 }, tag, undefined, marks).length <= TAG_FIRST;
  }

  /** How many hooks carry `tag` within the query's bounds (the tag index's range), up to `limit`. */
  function tagCount(query: SearchQuery, tag: string, limit: number): number {
    const args: (string | number)[] = [tag, query.since !== undefined ? ulidFloor(Math.ceil(query.since)) : ""];
    let text = "SELECT 1 FROM hook_tags WHERE tag = ? AND hook_id >= ?";
    const after = [query.after, query.until !== undefined ? ulidFloor(Math.ceil(query.until)) : undefined].filter((a) => a !== undefined);
    for (const a of after) (text += " AND hook_id < ?"), args.push(a);
    return (q(`SELECT count(*) AS n FROM (${text} LIMIT ?)`).get(...args, limit) as { n: number }).n;
  }

  /**
   * The ids of the `carried` hooks carrying `tag` within the query's bounds that are of its status
   * and channel, newest first: the tag's rows and the hooks' (channel, status, id) index range, ids
   * only, intersected here, when that reads less than joining each of the tag's rows to its hook
   * (about 0.25 µs a row against 1.5, as countColumns weighs them). Undefined when it does not, or
   * when neither a status nor a channel is asked.
   */
  function taggedWithin(query: SearchQuery, tag: string, carried: number): string[] | undefined {
    if (query.status === undefined && query.channel === undefined) return undefined;
    if (0.25 * (carried + rangeSize(query.channel, query.status)) > 1.5 * carried) return undefined;
    // Up to DRIVE_MAX + 1, not `carried`: rows tagged since it was counted are read too.
    const keep = new Set(tagged({ ...query, status: undefined, channel: undefined, limit: DRIVE_MAX + 1 }, tag));
    const args: (string | number)[] = [];
    let text = "SELECT id FROM hooks WHERE ";
    if (query.channel !== undefined) (text += "channel = ?"), args.push(query.channel);
    else text += `channel IN (SELECT name FROM channels WHERE ${query.status} > 0)`;
    if (query.status !== undefined) (text += " AND status = ?"), args.push(query.status);
    if (query.since !== undefined) (text += " AND id >= ?"), args.push(ulidFloor(Math.ceil(query.since)));
    if (query.until !== undefined) (text += " AND id < ?"), args.push(ulidFloor(Math.ceil(query.until)));
    if (query.after !== undefined) (text += " AND id < ?"), args.push(query.after);
    const ids = (q(text).values(...args) as [string][]).map(([id]) => id).filter((id) => keep.has(id));
    return ids.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  }

  /**
   * The text index's candidates within rowids [bottom, top): about how many, and how many per
   * millisecond (from the span of the newest COUNT_CHUNK, or counted when there are fewer): rowids
   * only, read in SQLite (about 25 ns each), no hook id looked up.
   */
  function candidateShape(match: string, top: number, bottom: number): { count: number; perMs: number } {
    const at = (order: "DESC" | "ASC", offset: number) =>
      (
        q(`SELECT rowid AS n FROM search.search_index WHERE search_index MATCH ? AND rowid < ? AND rowid >= ? ORDER BY rowid ${order} LIMIT 1 OFFSET ?`).get(
          match,
          top,
          bottom,
          offset,
        ) as { n: number } | null
      )?.n;
    const newest = at("DESC", 0);
    if (newest === undefined) return { count: 0, perMs: 0 };
    const oldest = at("ASC", 0)!;
    const spanMs = (from: number) => Math.floor(newest / PER_MS) - Math.floor(from / PER_MS) + 1;
    const kth = at("DESC", COUNT_CHUNK - 1);
    if (kth === undefined) {
      const count = (
        q("SELECT count(*) AS n FROM search.search_index WHERE search_index MATCH ? AND rowid < ? AND rowid >= ?").get(match, top, bottom) as { n: number }
      ).n;
      return { count, perMs: count / spanMs(oldest) };
    }
    const perMs = COUNT_CHUNK / spanMs(kth);
    return { count: Math.max(COUNT_CHUNK, perMs * spanMs(oldest)), perMs };
  }

  /**
   * The ids among `ids` that are candidates of `match` within rowids [bottom, top): the text
   * index's rowids of the ids' milliseconds (a hook's rowid is in its id's millisecond), read in
   * SQLite, their hook ids looked up; a hook of `ids` left out holds no word of the match (the
   * candidates are a superset of the matches), so it is not checked.
   */
  function candidatesAmong(ids: readonly string[], match: string, top: number, bottom: number): string[] {
    if (top <= bottom) return [];
    const among = new Set(ids);
    const ms = [...new Set(ids.map((id) => ulidTime(id) - EPOCH))];
    const rows = q(`SELECT r.hook_id FROM search.search_index s CROSS JOIN search.search_rows r ON r.n = s.rowid
      WHERE s.search_index MATCH ? AND s.rowid < ? AND s.rowid >= ? AND s.rowid >> ${PER_MS_BITS} IN (SELECT value FROM json_each(?))`).values(
      match,
      top,
      bottom,
      JSON.stringify(ms),
    ) as [string][];
    return rows.map(([id]) => id).filter((id) => among.has(id));
  }

  /**
   * The ids among `ids` the text index holds. A query with words or field terms finds a hook only
   * once it is indexed (the text index's candidates never hold the others): the paths that read a
   * tag's hooks instead of the candidates leave the others out too, so that every path (and a
   * count and its list) agrees while hooks wait for the index.
   */
  function indexedAmong(ids: readonly string[]): string[] {
    if (ids.length === 0) return [];
    const rows = q("SELECT r.hook_id FROM search.search_rows r WHERE r.hook_id IN (SELECT value FROM json_each(?))").values(JSON.stringify(ids)) as [string][];
    const held = new Set(rows.map(([id]) => id));
    return ids.filter((id) => held.has(id));
  }

  /** Candidates, newest first (`status` is left to the recheck, which reads the hooks anyway). */
  function matches(query: SearchQuery, match: string, top: number, bottom: number, limit: number): { id: string; n: number }[] {
    const args: (string | number)[] = [];
    let text = `SELECT r.hook_id AS id, s.rowid AS n FROM search.search_index s JOIN search.search_rows r ON r.n = s.rowid
      WHERE s.search_index MATCH ? AND s.rowid < ? AND s.rowid >= ?`;
    args.push(match, top, bottom);
    if (query.after !== undefined) (text += " AND r.hook_id < ?"), args.push(query.after);
    text += " ORDER BY s.rowid DESC LIMIT ?";
    return q(text).all(...args, limit) as { id: string; n: number }[];
  }

  /**
   * A search as it is read: after:/before: and status: ANDed at the top bound what is read (rowids,
   * the plain list); an exact `channel:` ANDed at the top is the plain list's channel filter
   * (channel names are lower case, as the term's value is), read by the hooks' index, not as a
   * needle of the text. Undefined when nothing can match (two statuses, two channels, a status no
   * hook of the channel is in by the counters).
   */
  function narrow(asked: SearchQuery): { query: SearchQuery; bounds: ReturnType<typeof topBounds> } | undefined {
    const now = asked.now ?? Date.now();
    const bounds = topBounds(asked.terms, now);
    const query: SearchQuery = { ...asked, now };
    if (bounds.since !== undefined) query.since = Math.max(query.since ?? bounds.since, bounds.since);
    if (bounds.until !== undefined) query.until = Math.min(query.until ?? bounds.until, bounds.until);
    if (bounds.status !== undefined) {
      if (query.status !== undefined && query.status !== bounds.status) return undefined;
      query.status = bounds.status as SearchQuery["status"];
    }
    const conjuncts = query.terms.node ? (query.terms.node.kind === "and" ? query.terms.node.items : [query.terms.node]) : [];
    const channelTerm = conjuncts.find((n) => n.kind === "field" && n.term.name === "channel" && !n.term.prefix);
    if (channelTerm?.kind === "field") {
      if (query.channel !== undefined && query.channel !== channelTerm.term.value) return undefined;
      query.channel = channelTerm.term.value;
      const rest = conjuncts.filter((n) => n !== channelTerm);
      query.terms = rest.length === 0 ? { words: [], fields: [], terms: [] } : needlesOf(rest.length === 1 ? rest[0]! : { kind: "and", items: rest });
    }
    // A status no hook is in (of the channel, when one is asked), by the counters: nothing can match,
    // and nothing need be read (a common word with `status:failed` when none failed read every candidate).
    if (query.status !== undefined && HOOK_STATUSES.includes(query.status) && rangeSize(query.channel, query.status) === 0) return undefined;
    return { query, bounds };
  }

  /** The rowids a search of these bounds reads: below `top`, at or above `bottom` (top <= bottom: none). */
  function rowRange(query: SearchQuery): { top: number; bottom: number } {
    let top = Number.MAX_SAFE_INTEGER;
    if (query.after !== undefined) top = Math.min(top, rowOf(ulidTime(query.after) + 1));
    if (query.until !== undefined) top = Math.min(top, rowOf(query.until));
    const bottom = query.since !== undefined ? rowOf(query.since) : Number.MIN_SAFE_INTEGER;
    return { top, bottom };
  }

  /** How many hooks a channel's or status's index range holds, by the channels' counters (without time bounds). */
  function rangeSize(channel: string | undefined, status: string | undefined): number {
    const of = status ?? "pending + handled + failed + discarded";
    const row =
      channel !== undefined ? q(`SELECT ${of} AS n FROM channels WHERE name = ?`).get(channel) : q(`SELECT coalesce(sum(${of}), 0) AS n FROM channels`).get();
    return (row as { n: number } | null)?.n ?? 0;
  }

  /**
   * How many hooks of one statement's rows match, up to `max + 1`, when every term of the query is a
   * hook column (columnSql): the rows of the tag every match carries (or of the mark), joined to
   * their hooks, when the tag's rows within the bounds are few or nothing narrows the hooks
   * better; else the hooks' own index (channel, status, id) or primary key. Undefined when a
   * term is not (words, field terms, `ip:`): countWalk counts those.
   */
  function countColumns(query: SearchQuery, bounds: ReturnType<typeof topBounds>, max: number): number | undefined {
    const args: (string | number)[] = [];
    const arg = (v: string | number) => (args.push(v), "?");
    const node = query.terms.node;
    const tree = node === undefined || hasTerms(query.terms) ? (node === undefined ? "1" : undefined) : columnSql(node, arg, query.now ?? Date.now());
    if (tree === undefined) return undefined;
    if (query.status !== undefined && !HOOK_STATUSES.includes(query.status)) return 0;
    const where = [tree];
    if (query.channel !== undefined) where.push(`h.channel = ${arg(query.channel)}`);
    if (query.status !== undefined) {
      where.push(`h.status = ${arg(query.status)}`);
      // The (channel, status, id) index read per channel, as the plain list reads a status (hook-ids.ts).
      if (query.channel === undefined) where.push(`h.channel IN (SELECT name FROM channels WHERE ${query.status} > 0)`);
    }
    if (query.since !== undefined) where.push(`h.id >= ${arg(ulidFloor(Math.ceil(query.since)))}`);
    if (query.until !== undefined) where.push(`h.id < ${arg(ulidFloor(Math.ceil(query.until)))}`);
    const type = eventTypeCondition(query.eventType, () => "?");
    args.push(...type.args);
    const narrowed = query.channel !== undefined || query.status !== undefined;
    const by =
      bounds.tag !== undefined
        ? { table: "hook_tags", column: "tag", value: bounds.tag }
        : bounds.mark !== undefined
          ? { table: "hook_marks", column: "kind", value: bounds.mark }
          : undefined;
    let from = "hooks h";
    const drive: (string | number)[] = [];
    if (by) {
      /** The id bounds of the query on `column`, their values pushed onto `to`. */
      const within = (column: string, to: (string | number)[]) =>
        (query.since !== undefined ? (to.push(ulidFloor(Math.ceil(query.since))), ` AND ${column} >= ?`) : "") +
        (query.until !== undefined ? (to.push(ulidFloor(Math.ceil(query.until))), ` AND ${column} < ?`) : "");
      const rowArgs: (string | number)[] = [by.value];
      const rows = `SELECT t.hook_id FROM ${by.table} t WHERE t.${by.column} = ?${within("t.hook_id", rowArgs)}`;
      let join = !narrowed;
      if (narrowed) {
        // Three ways, by what each reads (µs per row, measured at 1,000,000 hooks): the tag's rows
        // and the channel's or status's index range, both ids only, intersected here (0.25 each);
        // the tag's rows joined to their hooks (1.5 each); the hooks of the channel and status,
        // each looking its tag up (0.7 each). The counters say how many hooks the range holds.
        const tagged = (q(`SELECT count(*) AS n FROM (${rows} LIMIT ?)`).get(...rowArgs, DRIVE_MAX + 1) as { n: number }).n;
        const ranged = rangeSize(query.channel, query.status);
        const conjuncts = node === undefined ? [] : node.kind === "and" ? node.items : [node];
        const plainOnly =
          query.eventType === undefined &&
          conjuncts.every(
            (n) =>
              n.kind === "status" ||
              n.kind === "time" ||
              (n.kind === "tag" && by.table === "hook_tags" && n.value === by.value) ||
              (n.kind === "has" && n.value === "refusal" && by.table === "hook_marks"),
          );
        const intersect = plainOnly && tagged <= DRIVE_MAX ? 0.25 * (tagged + ranged) : Number.POSITIVE_INFINITY;
        const joined = tagged <= DRIVE_MAX ? 1.5 * tagged : Number.POSITIVE_INFINITY;
        if (intersect <= Math.min(joined, 0.7 * ranged)) {
          const rangeArgs: (string | number)[] = [];
          let range = "SELECT id FROM hooks WHERE ";
          if (query.channel !== undefined) (range += "channel = ?"), rangeArgs.push(query.channel);
          else range += `channel IN (SELECT name FROM channels WHERE ${query.status} > 0)`;
          if (query.status !== undefined) (range += " AND status = ?"), rangeArgs.push(query.status);
          range += within("id", rangeArgs);
          const keep = new Set((q(rows).values(...rowArgs) as [string][]).map(([id]) => id));
          let n = 0;
          for (const [id] of q(range).values(...rangeArgs) as [string][]) if (keep.has(id)) n++;
          return Math.min(n, max + 1);
        }
        join = joined <= 0.7 * ranged;
      }
      if (join) {
        from = `${by.table} t CROSS JOIN hooks h ON h.id = t.hook_id`;
        drive.push(...rowArgs);
        where.unshift(rows.slice(rows.indexOf("WHERE ") + 6));
      }
    } else if (!narrowed && node !== undefined && (node.kind === "and" ? node.items : [node]).some((n) => n.kind === "has" && n.value === "attempts")) {
      // `has:attempts` ANDed at the top, nothing narrower: the attempted hooks (their index, ids
      // only, each once) joined to their hooks, rather than every hook looking its attempts up.
      const within: string[] = [];
      if (query.since !== undefined) within.push("hook_id >= ?"), drive.push(ulidFloor(Math.ceil(query.since)));
      if (query.until !== undefined) within.push("hook_id < ?"), drive.push(ulidFloor(Math.ceil(query.until)));
      from = `(SELECT DISTINCT hook_id FROM attempts${within.length > 0 ? ` WHERE ${within.join(" AND ")}` : ""}) t CROSS JOIN hooks h ON h.id = t.hook_id`;
    }
    const text = `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${where.join(" AND ")}${type.sql} LIMIT ?)`;
    return (q(text).get(...drive, ...args, max + 1) as { n: number }).n;
  }

  /**
   * Whether a count's check of `terms` is of words alone (no field term, no other term, no filter),
   * each of which inBody may look for: well-formed (a lone surrogate is U+FFFD in a decoded body)
   * and without U+FEFF (a decoded body's first one is dropped).
   */
  function wordsOnly(terms: SearchTerms, f: RecheckFilters): boolean {
    return (
      terms.words.length > 0 &&
      terms.fields.length === 0 &&
      onlyNeedles(terms) &&
      f.channel === undefined &&
      f.status === undefined &&
      f.eventType === undefined &&
      terms.words.every((w) => w.isWellFormed() && !w.includes("\ufeff"))
    );
  }

  /**
   * The ids among `ids` whose body's searchable bytes (its first TEXT_BODY_BYTES) hold every one of
   * `words` (lower case, as a query's words are) as UTF-8: each such hook's document holds them,
   * since decoding keeps a well-formed character's bytes whatever comes before and lower-casing
   * leaves a lower-case word as it is; so they match without their document being built. A hook
   * not among them may still match (a word in its headers, or in capitals): it is checked whole.
   */
  function inBody(ids: readonly string[], words: readonly string[]): Set<string> {
    const tests = words.map(() => " AND instr(substr(CAST(body AS BLOB), 1, ?), ?) > 0").join("");
    const args = words.flatMap((w) => [TEXT_BODY_BYTES, encoder.encode(w)]);
    const rows = q(`SELECT id FROM hooks WHERE id IN (SELECT value FROM json_each(?))${tests}`).values(JSON.stringify(ids), ...args) as [string][];
    return new Set(rows.map(([id]) => id));
  }

  /**
   * What the text index and the bodies' bytes say of the words of `node` (a query's tree, or what is
   * left of it to check) in each of `ids`, within rowids [bottom, top): `held`, how many match
   * whatever else is known (when `final`: no filter is left to check beside the tree), and `rest`,
   * the ids it does not decide, to be checked whole. A hook the index holds that is no candidate of
   * a word lacks it (the candidates are a superset of the matches): a word's candidates among the
   * ids are read in SQLite (candidatesAmong) when that costs less than checking them, and its
   * absence proved so (for the words under a NOT only, when `source` says the ids are candidates of
   * the query already, or hooks the index holds). A hook whose body's bytes hold a word holds it
   * (inBody). Undefined when the tree has no word to judge. `shapes` keeps each word's candidates'
   * shape for the count.
   */
  function byIndex(
    ids: readonly string[],
    node: QueryNode,
    span: { top: number; bottom: number; final: boolean; source: Source },
    shapes: Map<string, { match: string | null; perMs: number } | undefined>,
  ): { held: number; rest: string[] } | undefined {
    const { all, negated } = wordLeaves(node);
    if (all.length === 0) return undefined;
    const absent = new Map<string, Set<string>>();
    const judged = span.source === "candidates" ? negated : all;
    if (judged.length > 0) {
      const indexed = span.source === "hooks" ? indexedAmong(ids) : ids;
      let newest = Number.NEGATIVE_INFINITY;
      let oldest = Number.POSITIVE_INFINITY;
      for (const id of indexed) (newest = Math.max(newest, ulidTime(id))), (oldest = Math.min(oldest, ulidTime(id)));
      for (const w of judged) {
        if (!shapes.has(w)) {
          // A word in most hooks (more than DENSE of them, by the counters) is proved absent from
          // few: reading its candidates costs more than it saves.
          const match = matchExpression({ words: [w], fields: [], terms: [] }, lookup);
          const shape = match === null ? { count: 0, perMs: 0 } : match === undefined ? undefined : candidateShape(match, span.top, span.bottom);
          const dense = shape !== undefined && shape.count > DENSE * rangeSize(undefined, undefined);
          shapes.set(w, shape === undefined || dense ? undefined : { match: match ?? null, perMs: shape.perMs });
        }
        const shape = shapes.get(w);
        if (!shape || indexed.length === 0 || shape.perMs * (newest - oldest + 1) > SCAN_PER_CHECK * indexed.length) continue;
        // The word's groups asked again after the ids were found indexed: a hook indexed since the
        // first chunk may hold a word new to the vocabulary.
        const match = matchExpression({ words: [w], fields: [], terms: [] }, lookup);
        if (match === undefined) continue;
        const held = new Set(
          match === null ? [] : candidatesAmong(indexed, match, Math.min(span.top, rowOf(newest + 1)), Math.max(span.bottom, rowOf(oldest))),
        );
        absent.set(w, new Set(indexed.filter((id) => !held.has(id))));
      }
    }
    // The bodies' bytes looked at a word at a time, only for the hooks the words before left open.
    const present = new Map<string, Set<string>>();
    const judge = (id: string) => decide(node, (w) => (present.get(w)?.has(id) ? true : absent.get(w)?.has(id) ? false : undefined));
    let held = 0;
    const rest: string[] = [];
    let open = [...ids];
    for (const w of [undefined, ...all]) {
      if (w !== undefined) {
        const lacking = absent.get(w);
        const looked = lacking ? open.filter((id) => !lacking.has(id)) : open;
        present.set(w, looked.length > 0 ? inBody(looked, [w]) : new Set());
      }
      const left: string[] = [];
      for (const id of open) {
        const v = judge(id);
        if (v === undefined) left.push(id);
        else if (v && span.final) held++;
        else if (v) rest.push(id);
      }
      open = left;
    }
    return { held, rest: [...rest, ...open] };
  }

  /**
   * How many hooks match, up to `max + 1`, for a query countColumns cannot count: candidates checked
   * a chunk at a time (recheck: the hook columns first, the document only of those they keep),
   * read along the cheapest filter first: the tag's (or mark's) hooks within the bounds, when they
   * are few or there is no needle; the status's or channel's hooks (their index range) when the
   * needles are common (a full first chunk of candidates); else the text index's candidates.
   */
  async function countWalk(query: SearchQuery, bounds: ReturnType<typeof topBounds>, match: string, max: number): Promise<number> {
    const now = query.now;
    if (query.status !== undefined && !HOOK_STATUSES.includes(query.status)) return 0;
    /**
     * The query's terms without the top-level conjuncts every candidate of a source holds already
     * (it read them from the tag's rows or a status's index range, within the bounds): the check
     * then reads less (no hook columns when only needles are left). Undefined when none is left.
     */
    const without = (held: (n: QueryNode) => boolean): SearchTerms | undefined => {
      const node = query.terms.node;
      if (!node) return hasTerms(query.terms) ? query.terms : undefined;
      const conjuncts = node.kind === "and" ? node.items : [node];
      const rest = conjuncts.filter((c) => !held(c));
      if (rest.length === 0) return undefined;
      return rest.length === conjuncts.length ? query.terms : needlesOf(rest.length === 1 ? rest[0]! : { kind: "and", items: rest });
    };
    const inBounds = (n: QueryNode) => n.kind === "time" || (n.kind === "status" && query.status !== undefined);
    let n = 0;
    const shapes = new Map<string, { match: string | null; perMs: number } | undefined>();
    /**
     * Counts the ids that hold `terms` and `filters` (all of them when there is nothing left to
     * check), read from `source`; whether to stop.
     */
    const check = async (ids: string[], terms: SearchTerms | undefined, filters: RecheckFilters, more: boolean, source: Source) => {
      if (ids.length > 0 && terms === undefined && filters.eventType === undefined) n += ids.length;
      else if (ids.length > 0) {
        const t = terms ?? query.terms;
        let rest = ids;
        if (t.node && (!onlyNeedles(t) || (source !== "candidates" && t.words.length > 0))) {
          // NOT, OR, or words beside hooks that are not their candidates: the words judged by the
          // index and the bodies' bytes, the rest checked whole.
          const final = filters.channel === undefined && filters.status === undefined && filters.eventType === undefined;
          const decided = byIndex(ids, t.node, { ...rowRange(query), final, source }, shapes);
          if (decided) (n += decided.held), (rest = decided.rest);
        } else if (wordsOnly(t, {})) {
          // The words found in the bodies' bytes; the list's filters, if any, then on the columns alone.
          const held = inBody(ids, t.words);
          const filtered = filters.channel !== undefined || filters.status !== undefined || filters.eventType !== undefined;
          n += filtered && held.size > 0 ? (await recheck([...held], { words: [], fields: [], terms: [] }, filters)).size : held.size;
          rest = ids.filter((id) => !held.has(id));
        }
        if (rest.length > 0) n += (await recheck(rest, t, filters)).size;
      }
      return n > max || !more;
    };
    /** Checks the ids `read` gives, a chunk at a time (those `keep` keeps of each). */
    const along = async (
      read: (below: string | undefined) => string[],
      terms: SearchTerms | undefined,
      filters: RecheckFilters,
      keep?: (ids: string[]) => string[],
    ) => {
      for (let below: string | undefined; ; ) {
        const ids = read(below);
        if (await check(keep ? keep(ids) : ids, terms, filters, ids.length === COUNT_CHUNK, keep ? "indexed" : "hooks")) return n;
        below = ids[ids.length - 1];
      }
    };
    /**
     * The hooks' index ranges (ranges) one after the other: their channel, status and event type are
     * those asked. With needles, only the hooks the index holds, as the candidates would be. A
     * status without a channel reads each channel's range a share of COUNT_CHUNK at a time (by its
     * counter), the shares checked together: a chunk then spans the time of COUNT_CHUNK hooks of
     * the status, not of one channel's, and a word's candidates in that span are few enough to
     * prove it absent (byIndex).
     */
    const alongRanges = async () => {
      const keep = match ? indexedAmong : undefined;
      const status = query.status;
      if (status !== undefined && query.channel === undefined) {
        const counts = q(`SELECT name, ${status} AS n FROM channels WHERE ${status} > 0`).values() as [string, number][];
        const total = counts.reduce((sum, [, c]) => sum + c, 0);
        let live = counts.map(([channel, c]) => ({
          channel,
          share: Math.max(16, Math.ceil((COUNT_CHUNK * c) / total)),
          below: undefined as string | undefined,
        }));
        while (live.length > 0) {
          const ids: string[] = [];
          const full: typeof live = [];
          for (const r of live) {
            const got = plain({ ...query, channel: r.channel, status, limit: r.share }, r.below);
            ids.push(...got);
            if (got.length === r.share) full.push({ ...r, below: got[got.length - 1] });
          }
          live = full;
          ids.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
          if (await check(keep ? keep(ids) : ids, without(inBounds), { now }, live.length > 0, keep ? "indexed" : "hooks")) return n;
        }
        return n;
      }
      for (const range of ranges(query)) if ((await along((below) => plain({ ...chunk, ...range }, below), without(inBounds), { now }, keep)) > max) break;
      return n;
    };
    const chunk = { ...query, limit: COUNT_CHUNK };
    // The tag's (or mark's) rows joined to their hooks' status and channel (not their event type).
    const tagHeld = (tag: string) => (c: QueryNode) => inBounds(c) || (c.kind === "tag" && c.value === tag);
    if (bounds.tag !== undefined && !match)
      return along((below) => tagged(chunk, bounds.tag!, below), without(tagHeld(bounds.tag)), { eventType: query.eventType, now });
    const markHeld = (c: QueryNode) => inBounds(c) || (c.kind === "has" && c.value === "refusal");
    if (!match && bounds.mark !== undefined)
      return along((below) => tagged(chunk, bounds.mark!, below, true), without(markHeld), { eventType: query.eventType, now });
    if (!match) return alongRanges();
    const { top, bottom } = rowRange(query);
    if (top <= bottom) return 0;
    if (bounds.tag !== undefined) {
      // The tag's hooks (up to DRIVE_MAX), unless the candidates are fewer than a fifth of them:
      // reading a tag's row costs about as much as five candidates read and left out by the tag.
      const tag = bounds.tag;
      const shape = candidateShape(match, top, bottom);
      if (shape.count === 0) return 0;
      const most = Math.min(DRIVE_MAX, Math.ceil(shape.count * 5));
      const carried = tagCount(query, tag, most + 1);
      if (carried <= most) {
        const terms = without(tagHeld(tag));
        const filters = { eventType: query.eventType, now };
        const within = taggedWithin(query, tag, carried);
        for (let below: string | undefined, at = 0; ; at += COUNT_CHUNK) {
          const ids = within ? within.slice(at, at + COUNT_CHUNK) : tagged(chunk, tag, below);
          let held = ids;
          let scan = true;
          if (ids.length > 0) {
            // The chunk's span of time: its candidates there, when they cost less than checking it
            // whole; else each of its hooks the index holds (indexedAmong: as the candidates would be).
            const newest = ulidTime(ids[0]!);
            const oldest = ulidTime(ids[ids.length - 1]!);
            scan = shape.perMs * (newest - oldest + 1) <= SCAN_PER_CHECK * ids.length;
            held = scan ? candidatesAmong(ids, match, Math.min(top, rowOf(newest + 1)), Math.max(bottom, rowOf(oldest))) : indexedAmong(ids);
          }
          if (await check(held, terms, filters, ids.length === COUNT_CHUNK, scan ? "candidates" : "indexed")) return n;
          below = ids[ids.length - 1];
        }
      }
    }
    let rows = matches(query, match, top, bottom, COUNT_CHUNK);
    // A common needle with a status: that index range holds fewer candidates (a channel is one of
    // the needles already).
    if (rows.length === COUNT_CHUNK && query.status !== undefined && bounds.tag === undefined) return alongRanges();
    // A tag every match carries, too common to read along: its hooks within the bounds (ids only,
    // up to DRIVE_MAX) leave out the candidates without it before any is checked.
    let keep: Set<string> | undefined;
    let terms = query.terms;
    if (bounds.tag !== undefined && rows.length === COUNT_CHUNK) {
      const ids = tagged({ ...query, status: undefined, channel: undefined, limit: DRIVE_MAX + 1 }, bounds.tag);
      if (ids.length <= DRIVE_MAX) {
        keep = new Set(ids);
        const tag = bounds.tag;
        terms = without((c) => c.kind === "time" || (c.kind === "tag" && c.value === tag)) ?? terms;
      }
    }
    for (let size = COUNT_CHUNK; ; ) {
      const ids = rows.map((r) => r.id);
      if (await check(keep ? ids.filter((id) => keep.has(id)) : ids, terms, query, rows.length === size, "candidates")) return n;
      // Filtered by the tag's ids, most candidates are dropped unread: fewer, longer statements of the text index.
      size = keep ? COUNT_CHUNK * 8 : COUNT_CHUNK;
      rows = matches(query, match, rows[rows.length - 1]!.n, bottom, size);
    }
  }

  return {
    dialect: "sqlite",
    transaction: transactor.transaction,

    async index(docs) {
      const fresh = new Set<string>();
      const freshIps = new Set<string>();
      // Inside another transaction, a rollback after this one could take the new words back out of
      // the vocabulary: they are not remembered then (only looked up again next time).
      const nested = !opts.ownWrites && currentTransaction(sql) !== undefined;
      await write(async () => {
        // The next free rowid of each millisecond, read once per millisecond of the batch.
        const free = new Map<number, number>();
        const claimed: [number, SearchDoc][] = [];
        for (const d of docs) {
          const ms = ulidTime(d.id) - EPOCH;
          if (ms <= -SPAN_MS || ms >= SPAN_MS - 1) continue;
          const base = ms * PER_MS;
          let n = free.get(base);
          if (n === undefined) {
            const last = (reserve.get(base, base + PER_MS) as { n: number | null }).n;
            n = last === null ? base : last + 1;
          }
          if (n >= base + PER_MS) continue; // PER_MS hooks in one millisecond: the rest are not searchable
          if (claim.run(n, d.id).changes === 0) continue;
          claimed.push([n, d]);
          free.set(base, n + 1);
        }
        // The words new to the vocabulary, then their trigrams, then the hooks' rows. FTS5 writes
        // its pending rows out as a new segment at every savepoint, which each claim and each word
        // (upserts) opens: written after all of them, the batch is one segment of each table.
        const rows: [number, string][] = [];
        for (const [n, d] of claimed) {
          const { words, keys } = searchTokens(d);
          // As SQLite stores it (a lone surrogate, from a long word cut or a JSON escape, becomes
          // U+FFFD): the word remembered is the word the vocabulary holds, and the prune forgets.
          for (const raw of words) {
            const w = raw.isWellFormed() ? raw : raw.toWellFormed();
            if (!isKnown(w) && w !== "") fresh.add(w);
          }
          if (d.ip !== undefined && !knownIps.has(d.ip)) freshIps.add(d.ip);
          rows.push([n, `${words.join(" ")} ${keys.join(" ")}`]);
        }
        for (const hex of freshIps) addIp.run(hex);
        const added: [number, string][] = [];
        for (const w of fresh) {
          const row = addWord.get(w) as { id: number } | null;
          if (row) added.push([row.id, w]);
        }
        for (const [id, w] of added) addGrams.run(id, w);
        for (const [n, words] of rows) put.run(n, words);
      });
      // Remembered once committed: a word of a batch rolled back is looked up again.
      if (!nested) {
        remember(fresh);
        if (knownIps.size + freshIps.size > KNOWN_IPS) knownIps = new Set();
        for (const hex of freshIps) knownIps.add(hex);
      }
    },

    async unindexed(after, scan) {
      const text = `SELECT id, EXISTS (SELECT 1 FROM search.search_rows r WHERE r.hook_id = h.id) AS done
        FROM main.hooks h WHERE id > ? ORDER BY id LIMIT ?`;
      const rows = q(text).values(after ?? "", scan) as [string, number][];
      return { ids: rows.filter(([, done]) => !done).map(([id]) => id), last: rows[rows.length - 1]?.[0] };
    },

    async search(asked) {
      const narrowed = narrow(asked);
      if (!narrowed) return [];
      const { query, bounds } = narrowed;
      const expression = matchExpression(query.terms, lookup, query.channel, query.eventType, ips);
      if (expression === null) return [];
      const match = expression ?? "";
      if (!hasTerms(query.terms) && onlyNeedles(query.terms)) return plain(query);
      if (!match || (bounds.tag !== undefined && tagFirst(query, bounds.tag))) {
        // Nothing every match must hold in the text (a query of NOT, OR or hook terms only): the
        // hooks carrying a tag (or a mark) every match carries, or else those the plain filters keep, newest
        // first, a chunk (one LIMITed index range) at a time, each checked against the whole query.
        const out: string[] = [];
        let below: string | undefined;
        for (let chunk = query.limit + 8; out.length < query.limit; chunk = Math.min(chunk * 4, 4096)) {
          const ids =
            bounds.tag !== undefined
              ? tagged({ ...query, limit: chunk }, bounds.tag, below)
              : bounds.mark !== undefined
                ? tagged({ ...query, limit: chunk }, bounds.mark, below, true)
                : plain({ ...query, limit: chunk }, below);
          const held = await recheck(match ? indexedAmong(ids) : ids, query.terms, query);
          for (const id of ids) if (held.has(id) && out.length < query.limit) out.push(id);
          if (ids.length < chunk) break;
          below = ids[ids.length - 1];
        }
        return out;
      }
      const { top, bottom } = rowRange(query);
      if (top <= bottom) return [];
      const found: { id: string; n: number }[] = [];
      /** Reads candidates below rowid `from` down to `to`, newest first, until `enough` match; where it stopped. */
      const walk = async (from: number, to: number, enough: number): Promise<number> => {
        for (let chunk = query.limit + 8; found.length < enough; chunk = Math.min(chunk * 4, 4096)) {
          const rows = matches(query, match, from, to, chunk);
          const held = await recheck(
            rows.map((r) => r.id),
            query.terms,
            query,
          );
          for (const r of rows) if (held.has(r.id)) found.push(r);
          if (rows.length < chunk) return to;
          from = rows[rows.length - 1]!.n;
        }
        return from;
      };
      const stop = await walk(top, bottom, query.limit);
      if (found.length >= query.limit) {
        // Rowids order by millisecond, ids within one millisecond may not follow them: the rest of
        // the limit-th match's millisecond is read too, and the page is cut by id.
        const floor = Math.floor(found[query.limit - 1]!.n / PER_MS) * PER_MS; // floor of a negative rowid too
        if (stop > floor) await walk(stop, floor, Number.POSITIVE_INFINITY);
      }
      const rows = found;
      return rows
        .map((r) => r.id)
        .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
        .slice(0, query.limit);
    },

    async count(asked, max) {
      const narrowed = narrow({ ...asked, limit: 0 });
      if (!narrowed) return 0;
      const { query, bounds } = narrowed;
      const counted = countColumns(query, bounds, max);
      if (counted !== undefined) return counted;
      const expression = matchExpression(query.terms, lookup, query.channel, query.eventType, ips);
      // A needle in no word of the vocabulary: nothing can match.
      if (expression === null) return 0;
      return Math.min(await countWalk(query, bounds, expression ?? "", max), max + 1);
    },

    /** The index on disk: its pages and its write-ahead log (which keeps up to 64 MiB after a checkpoint). */
    async sizeBytes() {
      const pages = q("PRAGMA search.page_count").get() as { page_count: number };
      const size = q("PRAGMA search.page_size").get() as { page_size: number };
      const file = (q("PRAGMA database_list").all() as { name: string; file: string }[]).find((d) => d.name === "search")?.file;
      const wal = file ? (statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0) : 0;
      return pages.page_count * size.page_size + wal;
    },

    async purge(after, scan) {
      const rows = q(`SELECT n, EXISTS (SELECT 1 FROM main.hooks h WHERE h.id = r.hook_id) AS kept
        FROM search.search_rows r WHERE n > ? ORDER BY n LIMIT ?`).values(after ?? Number.MIN_SAFE_INTEGER, scan) as [number, number][];
      const gone = rows.filter(([, kept]) => !kept).map(([n]) => n);
      if (gone.length > 0) {
        await write(async () => {
          for (const n of gone) q("DELETE FROM search.search_index WHERE rowid = ?").run(n), q("DELETE FROM search.search_rows WHERE n = ?").run(n);
          vocabulary.purged(gone.length);
        });
      }
      return rows[rows.length - 1]?.[0];
    },

    pruneDue: async () => vocabulary.due(),

    async prune(after, scan) {
      let next: string | undefined;
      await write(async () => void (next = vocabulary.pass(after, scan)));
      return next;
    },
  };
}
