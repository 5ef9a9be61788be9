import { MAX_QUERY_LENGTH } from "../hooks/hook-search";
import { TAG_PATTERN, TAG_RULE } from "../config/tags";
import { invalid } from "../lib/errors";
import { ulidFloor } from "../lib/ids";
import { IPV4_PATTERN, IPV6_PATTERN } from "../lib/ip-pattern";
import { HOOK_STATUSES, type HookStatus } from "../hooks/status";

/**
 * A search (`q` of ListHooks) as the index reads it: needles, each a substring that must occur in a
 * hook's text (body, headers, query string) or in its fields (document.ts). An exact field term's
 * needle is its whole line (`\nmethod=post\n`); a prefix term's is its line's start
 * (`\nheader.user-agent=stripe`). `terms` keeps each field term as written, lower case.
 */
export type FieldTerm = { name: string; value: string; prefix: boolean };
export type SearchTerms = { words: string[]; fields: string[]; terms: FieldTerm[]; node?: QueryNode };

/**
 * SQLite's keys (document.ts searchTokens): a field line's exact key (a hash of the line) and its
 * name's key (a hash of the name), each one token of the word index. They begin with a character
 * of Unicode's private use area, so a text's word is rarely one; a hash shared by two lines, or
 * such a word, only adds candidates; the check removes them.
 */
export function exactKey(name: string, value: string): string {
  const line = `${name}=${value}`;
  return `\ue000${Bun.hash.xxHash32(line).toString(36)}_${Bun.hash.xxHash32(line, 1).toString(36)}`;
}
export function nameKey(name: string): string {
  return `\ue001${Bun.hash.xxHash32(name).toString(36)}_${Bun.hash.xxHash32(name, 1).toString(36)}`;
}
/**
 * The index's key of a sender's address (its ipHex, whatever the form the ip was caught in): `ip:`
 * asks the index for the keys of the addresses its block holds (db/sqlite/search-store.ts).
 */
export function ipKey(hex: string): string {
  return `\ue002${hex}`;
}

/** The needle of a field term (fieldText'ed name and value): its line, or its line's start. */
export function fieldNeedle(name: string, value: string, prefix: boolean): string {
  return prefix ? `\n${name}=${value}` : `\n${name}=${value}\n`;
}

/** The trigram index cannot look up shorter words. */
export const MIN_WORD_LENGTH = 3;
const FIELD_NAME = /^(payload\.[^:\s]+|header\.[^:\s]+|type|event_type|event|method|ip|channel)$/i;
/** Other names of a field: `event_type:` (the Hook extension's name) and `event:` are `type:`. */
const FIELD_ALIASES: Record<string, string> = { event_type: "type", event: "type" };

/** A field line's text: lower case, on one line, without NUL (PostgreSQL's text has none). */
export function fieldText(value: string): string {
  return value.toLowerCase().replace(/[\n\r\0]/g, " ");
}

/**
 * A query that does not parse: what is wrong, and where (0-based index of the character of `q` at
 * which the token at fault starts, or the unclosed quote). parseSearch turns it into the API's
 * invalid_argument; a handler's `when` (check-config) says the position.
 */
export class QuerySyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

/**
 * A parsed query: a tree of terms joined by AND (juxtaposition), OR, NOT (`-term`) and parentheses.
 * Leaves are free words, field terms (needles of the document's fields), and hook terms that read a
 * hook's own columns (TERMS below: status, CIDR, has:, sizes, times). Both backends and a handler's
 * `when` evaluate the same tree: PostgreSQL compiles it to SQL (db/pg/search-store.ts), SQLite and
 * `when` evaluate it in memory (evaluate below), so their answers are the same.
 */
export type HookTerm =
  | { kind: "status"; value: string }
  /** `ip:` with a block or an address: the sender's address (ipHex) between `low` and `high` (32 hex digits each). */
  | { kind: "cidr"; low: string; high: string }
  /** `has:attempts`: a delivery was attempted; `has:refusal`: the same delivery was refused before it was caught (marks/). */
  | { kind: "has"; value: "attempts" | "refusal" }
  | { kind: "size"; op: ">" | "<"; bytes: number }
  | { kind: "time"; op: ">=" | "<"; ms: number; relative: boolean }
  | { kind: "tag"; value: string }
  /** `verified:true|false`: whether a guard authenticated its sender on catch; a hook whose fact is unknown matches neither. */
  | { kind: "verified"; value: boolean }
  /** `is:unread`: not opened by `reader` (a dashboard user's e-mail, `api:<label>` for a key), filled in by who asks (withReader). */
  | { kind: "unread"; reader?: string }
  /**
   * `schema:RESULT`, `is:new-type`, `is:new-field`: the hook's contract check (docs/contracts.md),
   * kept beside the hooks: the hook list filters its pages by them (splitContract), nothing else
   * searches them. `at`: where the term starts in the query.
   */
  | { kind: "contract"; result?: ContractResult; flag?: "new_type" | "new_field"; at: number };
export const CONTRACT_RESULTS = ["valid", "invalid", "unknown", "none"] as const;
export type ContractResult = (typeof CONTRACT_RESULTS)[number];
export type QueryNode =
  | { kind: "and" | "or"; items: QueryNode[] }
  | { kind: "not"; item: QueryNode }
  | { kind: "word"; word: string }
  | { kind: "field"; term: FieldTerm }
  | HookTerm;

/** A token: a term (quoted runs kept, quotes removed), a parenthesis, or NOT/OR/AND; with where it starts. */
type Token = { text: string; at: number; op?: "(" | ")" | "NOT" | "OR" | "AND" | "-"; quoted?: boolean };

function tokens(q: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "(" || c === ")") {
      out.push({ text: c, at: i, op: c });
      i++;
      continue;
    }
    if (c === "-" && i + 1 < q.length && !/[\s)]/.test(q[i + 1]!)) {
      out.push({ text: c, at: i, op: "-" });
      i++;
      continue;
    }
    const at = i;
    let text = "";
    let quoted = false;
    let anyQuote = false;
    let quoteAt = 0;
    for (; i < q.length; i++) {
      const d = q[i]!;
      if (d === '"') {
        if (quoted && q[i + 1] === '"') (text += '"'), i++;
        else (quoted = !quoted), (anyQuote = true), (quoteAt = quoted ? i : quoteAt);
      } else if (!quoted && (/\s/.test(d) || d === "(" || d === ")")) break;
      else text += d;
    }
    if (quoted) throw new QuerySyntaxError("a double quote is not closed", quoteAt);
    const keyword = !anyQuote && (text === "NOT" || text === "OR" || text === "AND") ? text : undefined;
    out.push({ text, at, op: keyword, quoted: q[at] === '"' });
  }
  return out;
}

/** Nesting deeper than this (parentheses, NOT) is refused: the tree is walked recursively. */
export const MAX_DEPTH = 32;

const SIZE_UNITS: Record<string, number> = { "": 1, b: 1, kb: 1024, k: 1024, mb: 1024 ** 2, m: 1024 ** 2, gb: 1024 ** 3, g: 1024 ** 3 };
const RELATIVE_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

const IPV4_RE = new RegExp(IPV4_PATTERN);
const IPV6_RE = new RegExp(IPV6_PATTERN);
/** Each group of `a:b:c` as 4 hex digits, joined ("" for ""). */
const padGroups = (text: string): string =>
  text === ""
    ? ""
    : text
        .split(":")
        .map((g) => g.padStart(4, "0"))
        .join("");
const dottedHex = (text: string) =>
  text
    .split(".")
    .map((o) => Number(o).toString(16).padStart(2, "0"))
    .join("");

/**
 * An address as `ip:` compares it: its 128 bits as 32 lower-case hex digits, IPv4 in its
 * IPv4-mapped IPv6 form (::ffff:a.b.c.d), so "10.1.2.3", "::ffff:10.1.2.3" and "::ffff:a01:203"
 * are one address; undefined when the text is no address (a hook's ip is what the socket gave, or
 * anything an import carried). IPv6 in any of its forms: compressed (`::`), upper case, a dotted
 * IPv4 tail; a `%zone` suffix is ignored. IPv4 octets with a leading zero (`010.0.0.1`) are no
 * address (they read as octal in some places). PostgreSQL reads a hook's ip by the same patterns.
 *
 * @example ipHex("10.0.0.1") === "00000000000000000000ffff0a000001"
 * @example ipHex("2001:DB8::1") === "20010db8000000000000000000000001"
 */
export function ipHex(text: string): string | undefined {
  const bare = text.split("%")[0]!;
  if (IPV4_RE.test(bare)) return `00000000000000000000ffff${dottedHex(bare)}`;
  if (!IPV6_RE.test(bare)) return undefined;
  let s = bare.toLowerCase();
  // A dotted IPv4 tail (::ffff:10.0.0.1) becomes two groups.
  const dot = s.lastIndexOf(":");
  if (s.includes(".")) s = `${s.slice(0, dot + 1)}${dottedHex(s.slice(dot + 1)).replace(/^(.{4})/, "$1:")}`;
  if (!s.includes("::")) return padGroups(s);
  const [left, right] = s.split("::") as [string, string];
  const groups = (left ? left.split(":").length : 0) + (right ? right.split(":").length : 0);
  return padGroups(left) + "0000".repeat(8 - groups) + padGroups(right);
}

/**
 * The `ip:` term of a block (`10.0.0.0/8`, `2001:db8::/32`) or of one address: the range of
 * ipHex's it covers. An IPv4 block covers the IPv4-mapped addresses (/8 is ::ffff:10.0.0.0/104).
 * Undefined when `text` is neither.
 */
export function ipRange(text: string): { low: string; high: string } | undefined {
  const slash = text.indexOf("/");
  const address = slash < 0 ? text : text.slice(0, slash);
  const hex = ipHex(address);
  if (hex === undefined || address.includes("%")) return undefined;
  const max = IPV4_RE.test(address) ? 32 : 128;
  const length = slash < 0 ? max : /^\d{1,3}$/.test(text.slice(slash + 1)) ? Number(text.slice(slash + 1)) : -1;
  if (length < 0 || length > max) return undefined;
  const span = (1n << BigInt(max - length)) - 1n;
  const low = BigInt(`0x${hex}`) & ~span;
  const out = (n: bigint) => n.toString(16).padStart(32, "0");
  return { low: out(low), high: out(low | span) };
}

/** A time of `after:`/`before:`: a date (UTC midnight), an ISO time, or a relative time (-1h). */
function timeOf(value: string): { ms: number; relative: boolean } | undefined {
  const rel = /^-(\d{1,9})([smhdw])$/.exec(value);
  if (rel) return { ms: -Number(rel[1]) * RELATIVE_UNITS[rel[2]!]!, relative: true };
  if (!/^\d{4}-\d{2}-\d{2}([t ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(z|[+-]\d{2}:\d{2})?)?$/.test(value)) return undefined;
  const text = value.length === 10 ? `${value}T00:00:00Z` : /z$|[+-]\d{2}:\d{2}$/.test(value) ? value.toUpperCase() : `${value.toUpperCase()}Z`;
  const ms = Date.parse(text.replace(" ", "T"));
  return Number.isFinite(ms) ? { ms, relative: false } : undefined;
}

/**
 * The hook terms: how each `name:value` becomes a tree leaf (or undefined with what was expected).
 * A new term is a line here, its SQL in db/pg/search-store.ts hookTermSql and its meaning in memory
 * in holdsHookTerm below. Field terms (payload., header., type/event_type/event, method, ip,
 * channel) are not here: they are needles of the document.
 */
export const TERMS: Record<string, (value: string) => QueryNode | string> = {
  status: (v) => (HOOK_STATUSES.includes(v as HookStatus) ? { kind: "status", value: v } : `one of ${HOOK_STATUSES.join(", ")}`),
  has: (v) => (v === "attempts" || v === "refusal" ? { kind: "has", value: v } : "attempts or refusal"),
  tag: (v) => (TAG.test(v) ? { kind: "tag", value: v } : `a tag: ${TAG_RULE}`),
  is: (v) =>
    v === "unread"
      ? { kind: "unread" }
      : v === "new-type" || v === "new-field"
        ? { kind: "contract", flag: v === "new-type" ? "new_type" : "new_field", at: 0 }
        : "unread, new-type or new-field",
  schema: (v) =>
    (CONTRACT_RESULTS as readonly string[]).includes(v)
      ? { kind: "contract", result: v as ContractResult, at: 0 }
      : `one of ${CONTRACT_RESULTS.join(", ")} (the contract check's result)`,
  verified: (v) => (v === "true" || v === "false" ? { kind: "verified", value: v === "true" } : "true or false"),
  larger: (v) => size(">", v),
  smaller: (v) => size("<", v),
  after: (v) => time(">=", v),
  before: (v) => time("<", v),
};
export { TAG_PATTERN, TAG_RULE };
const TAG = new RegExp(TAG_PATTERN);

/** Terms of the language not searchable yet: a clear 400 rather than a free word that finds nothing. */
export const NOT_YET: Record<string, string> = {};
function size(op: ">" | "<", v: string): QueryNode | string {
  const m = /^(\d{1,12}(?:\.\d{1,3})?)(b|kb?|mb?|gb?)?$/.exec(v);
  if (!m) return "a size such as 100KB, 2MB or 500B";
  return { kind: "size", op, bytes: Math.round(Number(m[1]) * SIZE_UNITS[m[2] ?? ""]!) };
}
function time(op: ">=" | "<", v: string): QueryNode | string {
  const t = timeOf(v);
  return t ? { kind: "time", op, ...t } : "a date (2026-11-01), a time (2026-11-01T10:00:00Z) or a relative time (-1h, -30m, -2d)";
}

/** A token as an error message quotes it: at most 40 characters, controls and bidi marks as \u escapes. */
const shown = (text: string): string =>
  `"${[...text]
    .slice(0, 40)
    .join("")
    .replace(/[\p{C}]/gu, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}`)}${[...text].length > 40 ? "..." : ""}"`;

/** Parses `q` into its tree; throws QuerySyntaxError with the position and what was expected. */
export function parseQuery(q: string): QueryNode {
  const list = tokens(q);
  let i = 0;
  const end = () => (i < list.length ? list[i]!.at : q.length);
  const what = () => (i < list.length ? shown(list[i]!.text) : "the end of the query");
  const orExpr = (depth: number): QueryNode => {
    const items = [andExpr(depth)];
    while (list[i]?.op === "OR") i++, items.push(andExpr(depth));
    return items.length === 1 ? items[0]! : { kind: "or", items };
  };
  const andExpr = (depth: number): QueryNode => {
    const items: QueryNode[] = [];
    for (;;) {
      const t = list[i];
      if (!t || t.op === ")" || t.op === "OR") break;
      if (t.op === "AND") {
        if (items.length === 0) throw new QuerySyntaxError(`expected a term before "AND"`, t.at);
        i++;
        if (!list[i] || list[i]!.op === ")" || list[i]!.op === "OR" || list[i]!.op === "AND")
          throw new QuerySyntaxError(`expected a term after "AND", found ${what()}`, end());
        continue;
      }
      items.push(unary(depth));
    }
    if (items.length === 0) throw new QuerySyntaxError(`expected a term, found ${what()}`, end());
    return items.length === 1 ? items[0]! : { kind: "and", items };
  };
  const unary = (depth: number): QueryNode => {
    if (depth > MAX_DEPTH) throw new QuerySyntaxError(`nesting is deeper than ${MAX_DEPTH}`, end());
    const t = list[i]!;
    if (t.op === "NOT" || t.op === "-") {
      i++;
      if (!list[i] || list[i]!.op === ")" || list[i]!.op === "OR" || list[i]!.op === "AND")
        throw new QuerySyntaxError(`expected a term after "${t.text}", found ${what()}`, end());
      return { kind: "not", item: unary(depth + 1) };
    }
    if (t.op === "(") {
      i++;
      const inner = orExpr(depth + 1);
      if (list[i]?.op !== ")") throw new QuerySyntaxError(`expected ")" to close the "(" at character ${t.at + 1}, found ${what()}`, end());
      i++;
      return inner;
    }
    i++;
    return leaf(t);
  };
  if (list.length === 0) return { kind: "and", items: [] };
  const tree = orExpr(0);
  if (i < list.length) throw new QuerySyntaxError(`unexpected ${what()}${list[i]!.op === ")" ? ' without its "("' : ""}`, end());
  return tree;
}

function leaf({ text: token, at, quoted }: Token): QueryNode {
  // A phrase (a token that opens with a quote) is a word, colon or not.
  const colon = quoted ? -1 : token.indexOf(":");
  const name = colon > 0 ? token.slice(0, colon) : "";
  const lower = name.toLowerCase();
  if (name && FIELD_NAME.test(name)) {
    let value = token.slice(colon + 1);
    if (value === "" || value === "*") throw new QuerySyntaxError(`the term ${shown(`${name}:`)} needs a value`, at);
    if (lower === "ip" && value.includes("/")) {
      const range = ipRange(value);
      if (!range)
        throw new QuerySyntaxError(
          `expected a CIDR block such as 10.0.0.0/8 or 2001:db8::/32 after "ip:" (an IPv4 address with /0 to /32, an IPv6 one with /0 to /128)`,
          at + colon + 1,
        );
      return { kind: "cidr", ...range };
    }
    // An address is compared as an address, whatever its form (::1, 0:0::1, ::ffff:10.0.0.1 and 10.0.0.1).
    const address = lower === "ip" && !value.includes("%") ? ipRange(value) : undefined;
    if (address) return { kind: "cidr", ...address };
    const prefix = value.endsWith("*");
    if (prefix) value = value.slice(0, -1);
    return { kind: "field", term: { name: FIELD_ALIASES[lower] ?? fieldText(name), value: fieldText(value), prefix } };
  }
  if (name && Object.hasOwn(NOT_YET, lower)) throw new QuerySyntaxError(`${shown(`${name}:`)} is not searchable: ${NOT_YET[lower]}`, at);
  const term = name && Object.hasOwn(TERMS, lower) ? TERMS[lower] : undefined;
  if (term) {
    const value = token.slice(colon + 1);
    const node = term(value.toLowerCase());
    if (typeof node === "string") throw new QuerySyntaxError(`expected ${node} after ${shown(`${name}:`)}`, at + colon + 1);
    return node.kind === "contract" ? { ...node, at } : node;
  }
  if ([...token].length < MIN_WORD_LENGTH) throw new QuerySyntaxError(`${shown(token)} is too short; words need at least ${MIN_WORD_LENGTH} characters`, at);
  return { kind: "word", word: token.toLowerCase().replace(/\0/g, " ") };
}

/**
 * Parses `q`. Throws invalid_argument (the documented 400) for a query that does not parse, saying
 * at which character and what was expected.
 *
 * @example parseSearch('invoice payload.customer:cus_1 header.user-agent:stripe*')
 *   // { words: ["invoice"], fields: ["\npayload.customer=cus_1\n", "\nheader.user-agent=stripe"], terms: [...], node }
 */
export function parseSearch(q: string): SearchTerms {
  if (q.length > MAX_QUERY_LENGTH) throw invalid(`invalid query: q: must be at most ${MAX_QUERY_LENGTH} characters`);
  return syntax(() => parseTerms(q));
}

/** `fn`'s answer; its QuerySyntaxError as the API's invalid_argument, saying the character. */
export function syntax<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw invalid(`invalid query: q: at character ${error.position + 1}: ${error.message}`);
    throw error;
  }
}

/**
 * parseSearch without the length limit; throws QuerySyntaxError (with the position) where
 * parseSearch answers 400. `words`, `fields` and `terms` are the needles every match holds (the
 * positive words and field terms ANDed at the top): the index's candidates; `node` the whole query.
 */
export function parseTerms(q: string): SearchTerms {
  return needlesOf(parseQuery(q));
}

/** A tree with the needles every match holds (parseTerms). */
export function needlesOf(node: QueryNode): SearchTerms {
  const terms: SearchTerms = { words: [], fields: [], terms: [], node };
  for (const n of node.kind === "and" ? node.items : [node]) {
    if (n.kind === "word") terms.words.push(n.word);
    else if (n.kind === "field") addTerm(terms, n.term);
  }
  return terms;
}

/** What a hook is, for the hook terms evaluated in memory. */
export type HookFacts = {
  id: string;
  status?: string;
  ip: string;
  size: number;
  attempts?: boolean;
  /** Whether its delivery was refused before it was caught (absent: no; marked after the catch, marks/). */
  refused?: boolean;
  /** Its tags (absent: none). */
  tags?: readonly string[];
  /** Whether a guard authenticated its sender on catch (null or absent: unknown). */
  verified?: boolean | null;
  /** Whether the asking reader opened it (absent: no; a `when` or a tag rule asks of hooks just caught, unread for everyone). */
  read?: boolean;
  /** Its contract check (absent: not checked, which no contract term matches). */
  contract?: ContractFacts;
};
/** A hook's contract check as the `contract` extension says it. */
export type ContractFacts = { result: string; new_type: boolean; new_field: boolean };

/** Whether one hook's document and facts match the tree; `now` resolves relative times. */
export function evaluate(node: QueryNode, doc: { text: string; fields: string }, hook: HookFacts, now: number): boolean {
  switch (node.kind) {
    case "and":
      return node.items.every((n) => evaluate(n, doc, hook, now));
    case "or":
      return node.items.some((n) => evaluate(n, doc, hook, now));
    case "not":
      return !evaluate(node.item, doc, hook, now);
    case "word":
      return doc.text.includes(node.word);
    case "field":
      return doc.fields.includes(fieldNeedle(node.term.name, node.term.value, node.term.prefix));
    default:
      return holdsHookTerm(node, hook, now);
  }
}

/** A hook term's meaning in memory (its SQL: db/pg/search-store.ts hookTermSql). */
function holdsHookTerm(t: HookTerm, hook: HookFacts, now: number): boolean {
  switch (t.kind) {
    case "status":
      return hook.status === t.value;
    case "cidr": {
      const hex = ipHex(hook.ip);
      return hex !== undefined && hex >= t.low && hex <= t.high;
    }
    case "has":
      return t.value === "refusal" ? hook.refused === true : hook.attempts === true;
    case "size":
      return t.op === ">" ? hook.size > t.bytes : hook.size < t.bytes;
    case "tag":
      return hook.tags?.includes(t.value) === true;
    case "unread":
      return hook.read !== true;
    case "contract": {
      const c = hook.contract;
      if (!c) return false;
      return t.result !== undefined ? c.result === t.result : t.flag === "new_type" ? c.new_type : c.new_field;
    }
    case "verified":
      return hook.verified === t.value;
    case "time": {
      const id = hook.id;
      const bound = ulidFloor(timeBound(t, now));
      return t.op === ">=" ? id >= bound : id < bound;
    }
  }
}

/** The millisecond a time term bounds, relative ones from `now`. */
export const timeBound = (t: { ms: number; relative: boolean }, now: number): number => Math.max(0, t.relative ? now + t.ms : t.ms);

/**
 * What the top-level AND says of the hook's columns, for an index to read less: the time range
 * (`after:`/`before:`, ms), the status, when one `status:` term is ANDed at the top, and a tag
 * every match carries (the first `tag:` ANDed at the top), and a mark (`has:refusal` ANDed at the top). The whole tree is still checked on each hook.
 */
export function topBounds(t: SearchTerms, now: number): { since?: number; until?: number; status?: string; tag?: string; mark?: "refusal" } {
  const out: { since?: number; until?: number; status?: string; tag?: string; mark?: "refusal" } = {};
  const node = t.node;
  if (!node) return out;
  for (const n of node.kind === "and" ? node.items : [node]) {
    if (n.kind === "time") {
      const ms = timeBound(n, now);
      if (n.op === ">=") out.since = Math.max(out.since ?? ms, ms);
      else out.until = Math.min(out.until ?? ms, ms);
    } else if (n.kind === "status") out.status = out.status === undefined || out.status === n.value ? n.value : "\0none";
    else if (n.kind === "tag") out.tag ??= n.value;
    else if (n.kind === "has" && n.value === "refusal") out.mark = "refusal";
  }
  return out;
}

/** The tree with `is:unread` asked by `reader` (a copy; the tree itself is shared by the pages of a list). */
export function withReader(node: QueryNode, reader: string | undefined): QueryNode {
  if (node.kind === "unread") return { kind: "unread", reader };
  if (node.kind === "and" || node.kind === "or") return { kind: node.kind, items: node.items.map((n) => withReader(n, reader)) };
  if (node.kind === "not") return { kind: "not", item: withReader(node.item, reader) };
  return node;
}

/** The reader of the tree's `is:unread` terms (withReader), if any. */
export function readerOf(node: QueryNode): string | undefined {
  if (node.kind === "unread") return node.reader;
  if (node.kind === "and" || node.kind === "or") {
    for (const n of node.items) {
      const r = readerOf(n);
      if (r !== undefined) return r;
    }
    return undefined;
  }
  if (node.kind === "not") return readerOf(node.item);
  return undefined;
}

/** Whether the tree uses a kind of term anywhere. */
export function uses(node: QueryNode, kind: QueryNode["kind"]): boolean {
  if (node.kind === kind) return true;
  if (node.kind === "and" || node.kind === "or") return node.items.some((n) => uses(n, kind));
  if (node.kind === "not") return uses(node.item, kind);
  return false;
}

/** Whether `has:<value>` is used anywhere in the tree. */
export function usesHas(node: QueryNode, value: "attempts" | "refusal"): boolean {
  if (node.kind === "has") return node.value === value;
  if (node.kind === "and" || node.kind === "or") return node.items.some((n) => usesHas(n, value));
  if (node.kind === "not") return usesHas(node.item, value);
  return false;
}

/** Whether a field term of a payload is used anywhere (the payload is decoded only then). */
export function usesPayload(node: QueryNode): boolean {
  if (node.kind === "field") return node.term.name.startsWith("payload.");
  if (node.kind === "and" || node.kind === "or") return node.items.some(usesPayload);
  if (node.kind === "not") return usesPayload(node.item);
  return false;
}

/** Adds the field term `name:value` (fieldText'ed; `prefix`: `value*`) to `terms`. */
export function addTerm(terms: SearchTerms, term: FieldTerm): void {
  terms.terms.push(term);
  terms.fields.push(fieldNeedle(term.name, term.value, term.prefix));
}

export const hasTerms = (t: SearchTerms): boolean => t.words.length > 0 || t.fields.length > 0;
/** Whether the query says anything (an empty one lists every hook). */
export const isEmpty = (t: SearchTerms): boolean => !hasTerms(t) && (!t.node || (t.node.kind === "and" && t.node.items.length === 0));
/** Whether the needles say all the query says (a plain AND of words and field terms). */
export const onlyNeedles = (t: SearchTerms): boolean =>
  !t.node || (t.node.kind === "and" ? t.node.items : [t.node]).every((n) => n.kind === "word" || n.kind === "field");

/**
 * The contract terms of a query apart from the rest: `contract` is the AND of the top-level
 * conjuncts made of contract terms only (with NOT, OR and parentheses among them), `rest` the
 * others. The hook list searches `rest` and filters its pages by `contract`. Throws
 * QuerySyntaxError when a contract term shares an OR or a NOT with another term: the two halves
 * could not be searched apart.
 */
export function splitContract(node: QueryNode): { rest: QueryNode; contract?: QueryNode } {
  if (!uses(node, "contract")) return { rest: node };
  const conjuncts: QueryNode[] = [];
  const flatten = (n: QueryNode) => (n.kind === "and" ? n.items.forEach(flatten) : conjuncts.push(n));
  flatten(node);
  const rest: QueryNode[] = [];
  const contract: QueryNode[] = [];
  for (const n of conjuncts) {
    if (!uses(n, "contract")) rest.push(n);
    else if (onlyContract(n)) contract.push(n);
    else
      throw new QuerySyntaxError(
        "schema:, is:new-type and is:new-field can join other terms by AND only, not in one OR or NOT with them",
        firstContract(n)?.at ?? 0,
      );
  }
  return {
    rest: rest.length === 1 ? rest[0]! : { kind: "and", items: rest },
    contract: contract.length === 1 ? contract[0]! : { kind: "and", items: contract },
  };
}

function onlyContract(n: QueryNode): boolean {
  if (n.kind === "contract") return true;
  if (n.kind === "and" || n.kind === "or") return n.items.every(onlyContract);
  if (n.kind === "not") return onlyContract(n.item);
  return false;
}

/** The first contract term of a tree (for the position of an error). */
export function firstContract(n: QueryNode): Extract<QueryNode, { kind: "contract" }> | undefined {
  if (n.kind === "contract") return n;
  if (n.kind === "and" || n.kind === "or") {
    for (const item of n.items) {
      const found = firstContract(item);
      if (found) return found;
    }
  }
  return n.kind === "not" ? firstContract(n.item) : undefined;
}

/** Whether a contract tree (splitContract) asks about `none` anywhere: a result implied, not kept. */
export function asksNone(n: QueryNode): boolean {
  if (n.kind === "contract") return n.result === "none";
  if (n.kind === "and" || n.kind === "or") return n.items.some(asksNone);
  return n.kind === "not" && asksNone(n.item);
}
