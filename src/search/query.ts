import { MAX_QUERY_LENGTH } from "../hooks/hook-search";
import { invalid } from "../lib/errors";

/**
 * A search (`q` of ListHooks) as the index reads it: needles, each a substring that must occur in a
 * hook's text (body, headers, query string) or in its fields (document.ts). An exact field term's
 * needle is its whole line (`\nmethod=post\n`); a prefix term's is its line's start
 * (`\nheader.user-agent=stripe`). `terms` keeps each field term as written, lower case.
 */
export type FieldTerm = { name: string; value: string; prefix: boolean };
export type SearchTerms = { words: string[]; fields: string[]; terms: FieldTerm[] };

/**
 * SQLite's keys (document.ts searchKeys): a field line's exact key, 5 capital letters (a hash of the
 * line), and its name's key, 3 (a hash of the name). The text is lower case, so their trigrams
 * occur in keys only: an exact term reads short lists (12 million keys), a prefix term the hooks
 * holding that field. A hash shared by two lines only adds candidates; the check removes them.
 */
export function exactKey(name: string, value: string): string {
  return capitals(Bun.hash.xxHash32(`${name}=${value}`), 5);
}
export function nameKey(name: string): string {
  return capitals(Bun.hash.xxHash32(name, 1), 3);
}
function capitals(hash: number, n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) (out += String.fromCharCode(65 + (hash % 26))), (hash = Math.floor(hash / 26));
  return out;
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

/** Splits on whitespace, keeping double-quoted runs together (quotes removed; `""` inside is one `"`); each token with where it starts. */
function tokens(q: string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  let current = "";
  let quoted = false;
  let started = false;
  let at = 0;
  let quoteAt = 0;
  for (let i = 0; i < q.length; i++) {
    const c = q[i]!;
    if (!started && !current) at = i;
    if (c === '"') {
      if (quoted && q[i + 1] === '"') (current += '"'), i++;
      else (quoted = !quoted), (started = true), (quoteAt = quoted ? i : quoteAt);
    } else if (!quoted && /\s/.test(c)) {
      if (started || current) out.push({ text: current, at });
      (current = ""), (started = false);
    } else current += c;
  }
  if (quoted) throw new QuerySyntaxError("a double quote is not closed", quoteAt);
  if (started || current) out.push({ text: current, at });
  return out;
}

/**
 * Parses `q`. Throws invalid_argument (the documented 400) for an unclosed quote, a field term
 * without a value, or a word under MIN_WORD_LENGTH characters.
 *
 * @example parseSearch('invoice payload.customer:cus_1 header.user-agent:stripe*')
 *   // { words: ["invoice"], fields: ["\npayload.customer=cus_1\n", "\nheader.user-agent=stripe"], terms: [...] }
 */
export function parseSearch(q: string): SearchTerms {
  if (q.length > MAX_QUERY_LENGTH) throw invalid(`invalid query: q: must be at most ${MAX_QUERY_LENGTH} characters`);
  try {
    return parseTerms(q);
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw invalid(`invalid query: q: ${error.message}`);
    throw error;
  }
}

/** parseSearch without the length limit; throws QuerySyntaxError (with the position) where parseSearch answers 400. */
export function parseTerms(q: string): SearchTerms {
  const terms: SearchTerms = { words: [], fields: [], terms: [] };
  for (const { text: token, at } of tokens(q)) {
    const colon = token.indexOf(":");
    const name = colon > 0 ? token.slice(0, colon) : "";
    if (name && FIELD_NAME.test(name)) {
      let value = token.slice(colon + 1);
      if (value === "" || value === "*") throw new QuerySyntaxError(`the term "${name}:" needs a value`, at);
      const prefix = value.endsWith("*");
      if (prefix) value = value.slice(0, -1);
      const lower = fieldText(name);
      addTerm(terms, { name: FIELD_ALIASES[lower] ?? lower, value: fieldText(value), prefix });
      continue;
    }
    if ([...token].length < MIN_WORD_LENGTH) throw new QuerySyntaxError(`"${token}" is too short; words need at least ${MIN_WORD_LENGTH} characters`, at);
    terms.words.push(token.toLowerCase().replace(/\0/g, " "));
  }
  return terms;
}

/** Adds the field term `name:value` (fieldText'ed; `prefix`: `value*`) to `terms`. */
export function addTerm(terms: SearchTerms, term: FieldTerm): void {
  terms.terms.push(term);
  terms.fields.push(fieldNeedle(term.name, term.value, term.prefix));
}

export const hasTerms = (t: SearchTerms): boolean => t.words.length > 0 || t.fields.length > 0;
