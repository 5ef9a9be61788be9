import type { Database } from "bun:sqlite";
import { decodePayload } from "../../hooks/payload";
import { docHolds, MAX_FIELD_VALUE, searchDoc } from "../../search/document";
import { evaluate, fieldText, onlyNeedles, readerOf, uses, usesHas, usesPayload, type FieldTerm, type QueryNode, type SearchTerms } from "../../search/query";

/** The plain list's `event_type`: equal, or a prefix (in characters) when it ends with "*" (db/event-type.ts eventTypeCondition). */
export function eventTypeHolds(have: string, wanted: string | undefined): boolean {
  if (wanted === undefined) return true;
  if (!wanted.endsWith("*")) return have === wanted;
  const prefix = [...wanted.slice(0, -1)];
  return [...have].slice(0, prefix.length).join("") === prefix.join("");
}

const EMPTY_DOC = { text: "", fields: "" };

/**
 * Fields whose lines a document takes from the hook's columns (document.ts searchDoc): a term of
 * them is checked on the columns, without the document. Each has one line at most, among the first
 * four (so never past MAX_FIELDS), and no other line starts with its name and "=".
 */
const COLUMN_FIELDS = new Set(["channel", "ip", "type"]);
const onColumns = (t: FieldTerm) => COLUMN_FIELDS.has(t.name);

/** Whether a tree needs a hook's document: a word, or a field term not of COLUMN_FIELDS. */
function needsDoc(n: QueryNode): boolean {
  if (n.kind === "and" || n.kind === "or") return n.items.some(needsDoc);
  if (n.kind === "not") return needsDoc(n.item);
  return n.kind === "word" || (n.kind === "field" && !onColumns(n.term));
}

/** The lines of COLUMN_FIELDS a hook's document holds, as its `fields` hold them. */
function columnDoc(r: { channel: string; ip: string; event_type: string }): { text: string; fields: string } {
  const lines: string[] = [];
  const add = (name: string, value: string) => value.length <= MAX_FIELD_VALUE && lines.push(`${name}=${fieldText(value)}`);
  add("channel", r.channel);
  add("ip", r.ip);
  if (r.event_type) add("type", r.event_type);
  return { text: "", fields: `\n${lines.join("\n")}\n` };
}

/** The filters a candidate is checked against beside the terms. */
export type RecheckFilters = { channel?: string; status?: string; eventType?: string; now?: number };

type ColumnRow = { id: string; channel: string; status: string; ip: string; event_type: string; size: number; verified: number | null };
type Row = ColumnRow & { method: string; query: string; headers: string; body: Uint8Array };

/**
 * The check of SQLite's candidates (the index keeps trigrams without positions, search-store.ts): the ids
 * among `ids` whose hook's document (search/document.ts, built again from the hook) holds every word in its
 * text and every field needle in its fields, and whose channel, status and event type are those
 * asked (`eventType` exactly, as the plain list does). A deleted hook is not read, so entries the
 * index still holds for it match nothing.
 */
export function createRecheck(sql: Database) {
  const read = sql.prepare(
    "SELECT id, channel, status, method, query, headers, body, ip, event_type, verified FROM hooks WHERE id IN (SELECT value FROM json_each(?))",
  );
  // A query of hook terms only reads neither headers nor body: length() of a blob reads no content.
  const readColumns = sql.prepare(
    "SELECT id, channel, status, ip, event_type, length(body) AS size, verified FROM hooks WHERE id IN (SELECT value FROM json_each(?))",
  );
  const attempted = sql.prepare("SELECT DISTINCT hook_id FROM attempts WHERE hook_id IN (SELECT value FROM json_each(?))");
  const marked = sql.prepare("SELECT hook_id FROM hook_marks WHERE kind = ? AND hook_id IN (SELECT value FROM json_each(?))");
  const tagged = sql.prepare("SELECT hook_id, tag FROM hook_tags WHERE hook_id IN (SELECT value FROM json_each(?))");
  const opened = sql.prepare("SELECT hook_id FROM hook_reads WHERE user_id = ? AND hook_id IN (SELECT value FROM json_each(?))");
  return async (ids: readonly string[], terms: SearchTerms, f: RecheckFilters): Promise<Set<string>> => {
    const held = new Set<string>();
    if (ids.length === 0) return held;
    // The whole query (NOT, OR, hook terms) when the needles do not say it all.
    const node = terms.node && !onlyNeedles(terms) ? terms.node : undefined;
    const payload = node ? usesPayload(node) : terms.fields.length > 0;
    const withAttempts = node && usesHas(node, "attempts") ? new Set((attempted.values(JSON.stringify(ids)) as [string][]).map(([id]) => id)) : undefined;
    const refused = node && usesHas(node, "refusal") ? new Set((marked.values("refusal", JSON.stringify(ids)) as [string][]).map(([id]) => id)) : undefined;
    let tags: Map<string, string[]> | undefined;
    if (node && uses(node, "tag")) {
      tags = new Map();
      for (const [id, tag] of tagged.values(JSON.stringify(ids)) as [string, string][]) {
        const list = tags.get(id);
        if (list) list.push(tag);
        else tags.set(id, [tag]);
      }
    }
    const opensOf =
      node && uses(node, "unread") ? new Set((opened.values(readerOf(node) ?? "", JSON.stringify(ids)) as [string][]).map(([id]) => id)) : undefined;
    const now = f.now ?? Date.now();
    // `type:`, `channel:` and `ip:` field terms are judged on the columns, like hook terms.
    const textual = node ? needsDoc(node) : terms.words.length > 0 || !terms.terms.every(onColumns);
    const factsOf = (r: { id: string; status: string; ip: string; verified: number | null }, size: number) => ({
      id: r.id,
      status: r.status,
      ip: r.ip,
      size,
      attempts: withAttempts?.has(r.id),
      refused: refused?.has(r.id),
      tags: tags?.get(r.id),
      read: opensOf?.has(r.id),
      verified: r.verified === null ? null : r.verified === 1,
    });
    // The conjuncts of the query that read no document (status:, tag:, after: ...), and the list's
    // filters, are checked first on the hooks' columns: a hook they reject is not read whole.
    const withFields = node ? uses(node, "field") : terms.terms.length > 0;
    const cheap = node && textual ? (node.kind === "and" ? node.items : [node]).filter((n) => !needsDoc(n)) : [];
    const filtered = f.channel !== undefined || f.status !== undefined || f.eventType !== undefined;
    let whole: readonly string[] = ids;
    if (!textual || cheap.length > 0 || filtered) {
      const kept: string[] = [];
      for (const r of readColumns.all(JSON.stringify(ids)) as ColumnRow[]) {
        if ((f.channel !== undefined && r.channel !== f.channel) || (f.status !== undefined && r.status !== f.status)) continue;
        if (!eventTypeHolds(r.event_type, f.eventType)) continue;
        const facts = factsOf(r, r.size);
        const doc = withFields ? columnDoc(r) : EMPTY_DOC;
        if (!textual) {
          if (node ? evaluate(node, doc, facts, now) : docHolds(doc, terms)) held.add(r.id);
        } else if (cheap.every((n) => evaluate(n, doc, facts, now))) kept.push(r.id);
      }
      if (!textual) return held;
      whole = kept;
      if (whole.length === 0) return held;
    }
    for (const r of read.all(JSON.stringify(whole)) as Row[]) {
      const headers = JSON.parse(r.headers) as Record<string, string>;
      const hook = { id: r.id, channel: r.channel, method: r.method, query: r.query, ip: r.ip, headers, body: r.body, eventType: r.event_type };
      const doc = searchDoc(hook, payload ? await decodePayload(headers, r.body) : null);
      // The filters were checked on the columns above when there were any (a hook whose status
      // changes between the two reads is judged by the first, as a search is a moment's answer).
      if (node ? evaluate(node, doc, factsOf(r, r.body.byteLength), now) : docHolds(doc, terms)) held.add(r.id);
    }
    return held;
  };
}
