import type { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { statementCache } from "./statements";
import { currentTransaction, sqliteTransactor } from "../transactor";
import { ulidFloor, ulidTime } from "../../lib/ids";
import { hookIds } from "./hook-ids";
import { MAX_FIELD_VALUE, MAX_WORD, searchTokens, WORD_SEPARATOR, WORD_STEP, type SearchDoc } from "../../search/document";
import { exactKey, fieldText, hasTerms, nameKey, needlesOf, onlyNeedles, topBounds, type SearchTerms } from "../../search/query";
import type { SearchQuery, SearchStore } from "../../search/store";
import { createRecheck } from "./search-recheck";

/**
 * FTS5 rowids order the index by time: the id's millisecond since EPOCH times PER_MS, plus a
 * counter within the millisecond. FTS5 walks a match in rowid order, so a page of the newest
 * matches reads only them. Rowids stay within JavaScript's exact integers (2^53) for ids of
 * 1990 to 2059; hooks with other times are not indexed.
 */
const PER_MS = 8192;
const EPOCH = Date.UTC(2025, 0, 1);
const SPAN_MS = Math.floor(Number.MAX_SAFE_INTEGER / PER_MS) - 1;
/** Hooks of a tag (within a search's bounds) up to which a search with words reads the tag's hooks (tagFirst). */
const TAG_FIRST = 20_000;
/** The first rowid of a millisecond (clamped: bounds of a search may lie anywhere). */
const rowOf = (ms: number) => Math.max(-SPAN_MS, Math.min(SPAN_MS, Math.ceil(ms) - EPOCH)) * PER_MS;

/** An FTS5 string: double quotes doubled. */
const phrase = (s: string) => `"${s.replaceAll('"', '""')}"`;

/** The distinct trigrams of a needle, by code point, as FTS5's trigram tokenizer cuts text. */
export function trigrams(needle: string): string[] {
  const cps = Array.from(needle);
  const out = new Set<string>();
  for (let i = 0; i + 3 <= cps.length; i++) out.add(cps[i]! + cps[i + 1]! + cps[i + 2]!);
  return [...out];
}

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
  if (parts.length === 1) return void push(lookup(needle.slice(0, WORD_STEP), "containing"));
  for (const whole of parts.slice(1, -1)) if (whole) out.push([whole.slice(0, MAX_WORD)]);
  const last = parts[parts.length - 1]!;
  if (last) push(lookup(last.slice(0, MAX_WORD), "starting"));
  const first = parts[0]!;
  if (first) push(lookup(first.slice(-WORD_STEP), "ending"));
}

/**
 * The FTS5 query of a search's candidates (undefined: nothing to ask the index; null: no hook can
 * match, a needle's piece being in no word indexed): for every word, the words of the vocabulary
 * it may be in (needleGroups); for every exact field term, its key; for every prefix term, its
 * name's key and its value as a word (search/document.ts searchTokens). A hook that matches holds
 * a word of each group, so the candidates include every match; each is checked against its document.
 */
export function matchExpression(terms: SearchTerms, lookup: WordLookup, channel?: string, eventType?: string): string | undefined | null {
  const groups: string[][] = [];
  for (const w of terms.words) needleGroups(w, lookup, groups);
  const fields = channel === undefined ? [...terms.terms] : [...terms.terms, { name: "channel", value: fieldText(channel), prefix: false }];
  // An event type asked exactly is also a `type:` term, lower case: a superset the check narrows.
  // A prefix is left to the check: "*" matches hooks of no known type, which have no `type` line
  // (and a type whose lower case passes MAX_FIELD_VALUE has none either).
  if (eventType !== undefined && !eventType.endsWith("*")) {
    const type = fieldText(eventType);
    if (type.length <= MAX_FIELD_VALUE) fields.push({ name: "type", value: type, prefix: false });
  }
  for (const t of fields) {
    if (!t.prefix) {
      groups.push([exactKey(t.name, t.value)]);
    } else {
      groups.push([nameKey(t.name)]);
      if (t.value) needleGroups(t.value, lookup, groups);
    }
  }
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

/** The string just above every string starting with `s` (its last code point's successor), or undefined. */
function above(s: string): string | undefined {
  const cps = Array.from(s);
  const last = cps.pop()!.codePointAt(0)!;
  return last >= 0x10ffff ? undefined : cps.join("") + String.fromCodePoint(last + 1);
}

/**
 * Words a store remembers as being in the vocabulary (two generations of up to this many): only
 * the others are looked for there when a hook is indexed. The vocabulary keeps every word for good.
 */
const KNOWN_WORDS = 200_000;

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
export function createSearchStore(conn: Database | { $client: Database }, opts: { ownWrites?: boolean } = {}): SearchStore {
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
  function tagFirst(query: SearchQuery, tag: string): boolean {
    return tagged({ ...query, status: undefined, channel: undefined, limit: TAG_FIRST + 1 }, tag).length <= TAG_FIRST;
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

  return {
    dialect: "sqlite",
    transaction: transactor.transaction,

    async index(docs) {
      const fresh = new Set<string>();
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
          for (const w of words) if (!isKnown(w) && w !== "") fresh.add(w);
          rows.push([n, `${words.join(" ")} ${keys.join(" ")}`]);
        }
        const added: [number, string][] = [];
        for (const w of fresh) {
          const row = addWord.get(w) as { id: number } | null;
          if (row) added.push([row.id, w]);
        }
        for (const [id, w] of added) addGrams.run(id, w);
        for (const [n, words] of rows) put.run(n, words);
      });
      // Remembered once committed: a word of a batch rolled back is looked up again.
      if (!nested) remember(fresh);
    },

    async unindexed(after, scan) {
      const text = `SELECT id, EXISTS (SELECT 1 FROM search.search_rows r WHERE r.hook_id = h.id) AS done
        FROM main.hooks h WHERE id > ? ORDER BY id LIMIT ?`;
      const rows = q(text).values(after ?? "", scan) as [string, number][];
      return { ids: rows.filter(([, done]) => !done).map(([id]) => id), last: rows[rows.length - 1]?.[0] };
    },

    async search(asked) {
      // after:/before: and status: ANDed at the top bound what is read (rowids, the plain list).
      const now = asked.now ?? Date.now();
      const bounds = topBounds(asked.terms, now);
      const query: SearchQuery = { ...asked, now };
      if (bounds.since !== undefined) query.since = Math.max(query.since ?? bounds.since, bounds.since);
      if (bounds.until !== undefined) query.until = Math.min(query.until ?? bounds.until, bounds.until);
      if (bounds.status !== undefined) {
        if (query.status !== undefined && query.status !== bounds.status) return [];
        query.status = bounds.status as SearchQuery["status"];
      }
      // An exact `channel:` ANDed at the top is the plain list's channel filter (channel names are
      // lower case, as the term's value is): read by the hooks' index, not as a needle of the text.
      const conjuncts = query.terms.node ? (query.terms.node.kind === "and" ? query.terms.node.items : [query.terms.node]) : [];
      const channelTerm = conjuncts.find((n) => n.kind === "field" && n.term.name === "channel" && !n.term.prefix);
      if (channelTerm?.kind === "field") {
        if (query.channel !== undefined && query.channel !== channelTerm.term.value) return [];
        query.channel = channelTerm.term.value;
        const rest = conjuncts.filter((n) => n !== channelTerm);
        query.terms = rest.length === 0 ? { words: [], fields: [], terms: [] } : needlesOf(rest.length === 1 ? rest[0]! : { kind: "and", items: rest });
      }
      const expression = hasTerms(query.terms) ? matchExpression(query.terms, lookup, query.channel, query.eventType) : undefined;
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
          const held = await recheck(ids, query.terms, query);
          for (const id of ids) if (held.has(id) && out.length < query.limit) out.push(id);
          if (ids.length < chunk) break;
          below = ids[ids.length - 1];
        }
        return out;
      }
      let top = Number.MAX_SAFE_INTEGER;
      if (query.after !== undefined) top = Math.min(top, rowOf(ulidTime(query.after) + 1));
      if (query.until !== undefined) top = Math.min(top, rowOf(query.until));
      const bottom = query.since !== undefined ? rowOf(query.since) : Number.MIN_SAFE_INTEGER;
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
        });
      }
      return rows[rows.length - 1]?.[0];
    },
  };
}
