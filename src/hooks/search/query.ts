import { invalid } from "../../lib/errors";

/**
 * A search (`q` of ListHooks) as the index reads it: needles, each a lower-case substring that must
 * occur in a hook's text (body, headers, query string) or in its field lines (document.ts). Field
 * needles are whole lines (`\nmethod=post\n`), or a line's start for a prefix term (`value*`).
 */
export type SearchTerms = { words: string[]; fields: string[] };

export const MAX_QUERY_LENGTH = 1000;
/** The trigram index cannot look up shorter words. */
export const MIN_WORD_LENGTH = 3;
const FIELD_NAME = /^(payload\.[^:\s]+|header\.[^:\s]+|type|method|ip|channel)$/i;

/** A field line's text: lower case, on one line, without NUL (PostgreSQL's text has none). */
export function fieldText(value: string): string {
  return value.toLowerCase().replace(/[\n\r\0]/g, " ");
}

/** Splits on whitespace, keeping double-quoted runs together (quotes removed; `""` inside is one `"`). */
function tokens(q: string): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  let started = false;
  for (let i = 0; i < q.length; i++) {
    const c = q[i]!;
    if (c === '"') {
      if (quoted && q[i + 1] === '"') (current += '"'), i++;
      else (quoted = !quoted), (started = true);
    } else if (!quoted && /\s/.test(c)) {
      if (started || current) out.push(current);
      (current = ""), (started = false);
    } else current += c;
  }
  if (quoted) throw invalid("invalid query: q: a double quote is not closed");
  if (started || current) out.push(current);
  return out;
}

/**
 * Parses `q`. Throws invalid_argument (the documented 400) for an unclosed quote, a field term
 * without a value, or a word under MIN_WORD_LENGTH characters.
 *
 * @example parseSearch('invoice payload.customer:cus_1 header.user-agent:stripe*')
 *   // { words: ["invoice"], fields: ["\npayload.customer=cus_1\n", "\nheader.user-agent=stripe"] }
 */
export function parseSearch(q: string): SearchTerms {
  if (q.length > MAX_QUERY_LENGTH) throw invalid(`invalid query: q: must be at most ${MAX_QUERY_LENGTH} characters`);
  const terms: SearchTerms = { words: [], fields: [] };
  for (const token of tokens(q)) {
    const colon = token.indexOf(":");
    const name = colon > 0 ? token.slice(0, colon) : "";
    if (name && FIELD_NAME.test(name)) {
      let value = token.slice(colon + 1);
      if (value === "" || value === "*") throw invalid(`invalid query: q: the term "${name}:" needs a value`);
      const prefix = value.endsWith("*");
      if (prefix) value = value.slice(0, -1);
      const line = `\n${fieldText(name)}=${fieldText(value)}`;
      terms.fields.push(prefix ? line : `${line}\n`);
      continue;
    }
    if ([...token].length < MIN_WORD_LENGTH) throw invalid(`invalid query: q: "${token}" is too short; words need at least ${MIN_WORD_LENGTH} characters`);
    terms.words.push(token.toLowerCase().replace(/\0/g, " "));
  }
  return terms;
}

/** The field needle of an event type, as `type:VALUE` makes it (a trailing `*`: a prefix). */
export function typeNeedle(value: string): string {
  const prefix = value.endsWith("*");
  const line = `\ntype=${fieldText(prefix ? value.slice(0, -1) : value)}`;
  return prefix ? line : `${line}\n`;
}

export const hasTerms = (t: SearchTerms): boolean => t.words.length > 0 || t.fields.length > 0;
