import { ulidFloor } from "../../lib/ids";
import type { SearchDoc } from "../../search/document";
import { hasTerms, needlesOf, onlyNeedles, timeBound, uses, type HookTerm, type QueryNode, type SearchTerms } from "../../search/query";
import { eventTypeCondition } from "../event-type";
import type { CountQuery, SearchQuery, SearchStore } from "../../search/store";
import type { PgTransactor } from "./transactor";
import { hookIpInet } from "../../schema/pg/ip";

/**
 * The token an exact field line is also stored as on PostgreSQL: a 64-bit hash in 11 base64url
 * characters, between spaces. Its trigrams are rare, where the line shares its name's trigrams with
 * every hook, so an exact field term reads short lists (rows stored before keep matching: the
 * token is the one `fields` always held here).
 */
export function fieldToken(line: string): string {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt.asUintN(64, BigInt(Bun.hash.wyhash(line))));
  return ` ${Buffer.from(bytes).toString("base64url")} `;
}

/** What `hook_search.fields` holds: the document's lines, then each line's token. */
const storedFields = (d: SearchDoc) => d.fields + d.lines.map(([n, v]) => fieldToken(`${n}=${v}`)).join("");

/** A LIKE pattern holding `needle` anywhere (`\` escapes). */
const containing = (needle: string) => `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * `h.ip` as an `inet` (NULL when it is no address): the expression of the index `hooks_ip_id`,
 * which the planner matches only when it is repeated exactly (schema/pg/ip.ts).
 */
const IP_INET = hookIpInet("h.ip");
/** 32 hex digits as an IPv6 address's text (`inet` reads it). */
const inetText = (hex: string) => hex.match(/.{4}/g)!.join(":");

/**
 * An `ip:` term's SQL. Its address is NULL for an ip that is no address, and so is the comparison.
 * Where an even number of NOTs (none, usually) stands above the term, a NULL there keeps a row out
 * or in as false would (AND and OR are monotone, two NOTs undo each other), so the comparison is
 * written bare, as the index `hooks_ip_id` answers it (`=` for one address, whose hooks the index
 * gives in id order); under an odd number it is made false first, so that `-ip:10.0.0.0/8` finds
 * the hooks with no address.
 */
function cidrSql(t: { low: string; high: string }, arg: (v: unknown) => string, even: boolean): string {
  const test =
    t.low === t.high ? `${IP_INET} = ${arg(inetText(t.low))}::inet` : `${IP_INET} BETWEEN ${arg(inetText(t.low))}::inet AND ${arg(inetText(t.high))}::inet`;
  return even ? `(${test})` : `COALESCE(${test}, false)`;
}

/**
 * A hook term's SQL over `hooks h` (its meaning in memory: search/query.ts holdsHookTerm); `id` is
 * the hook's id column (`s.id` when the statement reads no `hooks` row: HOOKLESS terms); `even`:
 * whether an even number of NOTs stands above it.
 */
function hookTermSql(t: HookTerm, arg: (v: unknown) => string, now: number, id: string, even: boolean): string {
  switch (t.kind) {
    case "status":
      return `h.status = ${arg(t.value)}`;
    case "cidr":
      return cidrSql(t, arg, even);
    case "has":
      return t.value === "refusal"
        ? `EXISTS (SELECT 1 FROM hook_marks mk WHERE mk.hook_id = ${id} AND mk.kind = 'refusal')`
        : `EXISTS (SELECT 1 FROM attempts a WHERE a.hook_id = ${id})`;
    case "tag":
      return `EXISTS (SELECT 1 FROM hook_tags tg WHERE tg.hook_id = ${id} AND tg.tag = ${arg(t.value)})`;
    case "unread":
      return `NOT EXISTS (SELECT 1 FROM hook_reads rd WHERE rd.hook_id = ${id} AND rd.user_id = ${arg(t.reader ?? "")})`;
    case "verified":
      return `h.verified IS ${t.value ? "TRUE" : "FALSE"}`;
    case "size":
      return `octet_length(h.body) ${t.op} ${arg(t.bytes)}::bigint`;
    case "time":
      return `${id} ${t.op} ${arg(ulidFloor(timeBound(t, now)))}`;
    case "contract":
      // Never searched: the hook list filters its pages by them (search/query.ts splitContract).
      throw new Error("contract terms are not searched");
  }
}

/** A field term's needle in `hook_search.fields`: an exact line's token, or a prefix line's start. */
const fieldLike = (t: { name: string; value: string; prefix: boolean }) => containing(t.prefix ? `\n${t.name}=${t.value}` : fieldToken(`${t.name}=${t.value}`));

/**
 * The SQL of a query's tree (words and fields over `hook_search s`, hook terms over `hooks h`);
 * `even`: whether an even number of NOTs stands above `node`.
 */
function nodeSql(node: QueryNode, arg: (v: unknown) => string, now: number, id: string, even = true): string {
  switch (node.kind) {
    case "and":
    case "or":
      return node.items.length === 0
        ? node.kind === "and"
          ? "true"
          : "false"
        : `(${node.items.map((n) => nodeSql(n, arg, now, id, even)).join(` ${node.kind.toUpperCase()} `)})`;
    case "not":
      return `NOT ${nodeSql(node.item, arg, now, id, !even)}`;
    case "word":
      return `s.text LIKE ${arg(containing(node.word))}`;
    case "field":
      return `s.fields LIKE ${arg(fieldLike(node.term))}`;
    default:
      return hookTermSql(node, arg, now, id, even);
  }
}

/** Hook terms that read only a hook's id (and tables keyed by it): no `hooks` row is needed for them. */
const HOOKLESS = new Set<QueryNode["kind"]>(["and", "or", "not", "word", "field", "tag", "time", "has", "unread"]);
const hookless = (node: QueryNode): boolean =>
  HOOKLESS.has(node.kind) && (node.kind === "and" || node.kind === "or" ? node.items.every(hookless) : node.kind === "not" ? hookless(node.item) : true);

/**
 * An exact `channel:` ANDed at the top as the list's channel filter (channel names are lower case,
 * as the term's value is): the hooks' (channel, status, id) index reads it, where its needle in
 * `fields` is held by every hook of the channel. Undefined when nothing can match (two channels).
 */
function narrow(query: CountQuery & { after?: string }): (CountQuery & { after?: string }) | undefined {
  const node = query.terms.node;
  const conjuncts = node ? (node.kind === "and" ? node.items : [node]) : [];
  const term = conjuncts.find((n) => n.kind === "field" && n.term.name === "channel" && !n.term.prefix);
  if (term?.kind !== "field") return query;
  if (query.channel !== undefined && query.channel !== term.term.value) return undefined;
  const rest = conjuncts.filter((n) => n !== term);
  const terms: SearchTerms = rest.length === 0 ? { words: [], fields: [], terms: [] } : needlesOf(rest.length === 1 ? rest[0]! : { kind: "and", items: rest });
  return { ...query, channel: term.term.value, terms };
}

/**
 * The FROM and WHERE of a search (or a count: no `after`), and its parameters: the whole tree as
 * SQL, or its needles when they say it all, and the list's filters. With words or field terms and
 * nothing that reads a hook's columns (a tag, times, marks), `hook_search` alone: its rows are
 * deleted with their hooks, and a candidate is one row fewer to look up.
 */
function searchSql(asked: CountQuery & { after?: string }): { from: string; where: string; args: unknown[]; arg: (v: unknown) => string; id: string } {
  const args: unknown[] = [];
  const arg = (v: unknown) => `$${args.push(v)}`;
  const query = narrow(asked);
  if (!query) return { from: "hooks h", where: "WHERE false", args, arg, id: "h.id" };
  const where: string[] = [];
  const node = query.terms.node;
  const whole = node !== undefined && !onlyNeedles(query.terms);
  const terms = whole ? uses(node, "word") || uses(node, "field") : hasTerms(query.terms);
  const noHook = terms && query.channel === undefined && query.status === undefined && query.eventType === undefined && (!whole || hookless(node));
  const id = noHook ? "s.id" : "h.id";
  if (whole) where.push(nodeSql(node, arg, query.now ?? Date.now(), id));
  else {
    for (const w of query.terms.words) where.push(`s.text LIKE ${arg(containing(w))}`);
    for (const t of query.terms.terms) where.push(`s.fields LIKE ${arg(fieldLike(t))}`);
  }
  if (query.channel !== undefined) where.push(`h.channel = ${arg(query.channel)}`);
  if (query.status !== undefined) where.push(`h.status = ${arg(query.status)}`);
  let n = args.length;
  const type = eventTypeCondition(query.eventType, () => `$${++n}`);
  if (type.sql) where.push(type.sql.replace(/^ AND /, "").replaceAll("event_type", "h.event_type")), args.push(...type.args);
  if (query.after !== undefined) where.push(`${id} < ${arg(query.after)}`);
  if (query.since !== undefined) where.push(`${id} >= ${arg(ulidFloor(Math.ceil(query.since)))}`);
  if (query.until !== undefined) where.push(`${id} < ${arg(ulidFloor(Math.ceil(query.until)))}`);
  const from = noHook ? "hook_search s" : terms ? "hook_search s JOIN hooks h ON h.id = s.id" : "hooks h";
  return { from, where: where.length ? `WHERE ${where.join(" AND ")}` : "", args, arg, id };
}

/**
 * PostgreSQL's side of SearchStore: `hook_search` (lower-case text and field lines, pg_trgm GIN
 * indexes, deleted with its hook by foreign key). Every needle is a LIKE the trigram index answers;
 * the planner intersects them, or walks ids newest first when a needle is common. Searches and
 * counts are planned for their values every time (PgTransactor.read): a generic plan, made without
 * a LIKE pattern, a tag or a status, counted `refund tag:big` in 1.2 s instead of 55 ms.
 */
export function createPgSearchStore(t: PgTransactor): SearchStore {
  const x = () => t.exec();
  return {
    dialect: "postgres",
    transaction: t.transaction,

    async index(docs) {
      if (docs.length === 0) return;
      // FOR KEY SHARE: a hook deleted meanwhile is skipped instead of failing the foreign key. The
      // rows are locked in id order, as deleteHooks locks them: in the order of `docs`, a deletion
      // running beside it deadlocked (and one of the two failed).
      await x().unsafe(
        `INSERT INTO hook_search (id, text, fields)
         SELECT u.id, u.text, u.fields FROM unnest($1::text[], $2::text[], $3::text[]) AS u(id, text, fields)
         JOIN (SELECT id FROM hooks WHERE id = ANY($1) ORDER BY id FOR KEY SHARE) h ON h.id = u.id
         ON CONFLICT (id) DO NOTHING`,
        [docs.map((d) => d.id), docs.map((d) => d.text), docs.map(storedFields)],
      );
    },

    async unindexed(after, scan) {
      const rows = (await x().unsafe(
        `SELECT id, EXISTS (SELECT 1 FROM hook_search s WHERE s.id = h.id) AS done FROM hooks h WHERE id > $1 ORDER BY id LIMIT $2`,
        [after ?? "", scan],
      )) as { id: string; done: boolean }[];
      return { ids: rows.filter((r) => !r.done).map((r) => r.id), last: rows[rows.length - 1]?.id };
    },

    async search(query: SearchQuery) {
      const { from, where, args, arg, id } = searchSql(query);
      const rows = await t.read(`SELECT ${id} AS id FROM ${from} ${where} ORDER BY ${id} DESC LIMIT ${arg(query.limit)}`, args);
      return (rows as { id: string }[]).map((r) => r.id);
    },

    // The search's own statement, counted up to max + 1 (the planner reads the cheapest index first).
    async count(query, max) {
      const { from, where, args, arg } = searchSql(query);
      const [row] = (await t.read(`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${from} ${where} LIMIT ${arg(max + 1)}) c`, args)) as { n: number }[];
      return row?.n ?? 0;
    },

    async sizeBytes() {
      const [r] = (await x().unsafe(`SELECT pg_total_relation_size('hook_search')::float8 AS n`)) as { n: number }[];
      return r?.n;
    },
  };
}
