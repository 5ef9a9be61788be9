/**
 * The search index (src/search) on SQLite and PostgreSQL: every filter of a search, alone
 * and combined, paged with `after`, gives exactly what a full scan of the hooks with the documented
 * rules gives. Hooks are indexed in shuffled order (ids of one millisecond out of rowid order),
 * some change status and some are deleted after being indexed. Some hooks hold every trigram of a
 * word without holding the word.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { isIP } from "node:net";
import { monotonicFactory } from "ulid";
import { createPgHookStore } from "../../../src/db/pg/hook-store";
import { createPgSearchStore } from "../../../src/db/pg/search-store";
import { detectEventType } from "../../../src/hooks/event-type";
import { decodePayload } from "../../../src/hooks/payload";
import { searchDoc } from "../../../src/search/document";
import { parseSearch, withReader, type QueryNode } from "../../../src/search/query";
import { pgDialect, sqliteDialect } from "../../../src/db/stores/dialect";
import { createReadStore, createTagStore } from "../../../src/db/stores/tags";
import { createMarkStore } from "../../../src/db/stores/marks";
import { createSearchStore } from "../../../src/db/sqlite/search-store";
import type { SearchQuery } from "../../../src/search/store";
import { attachSearchIndex } from "../../../src/db/sqlite/search-index-file";
import { createHookStore } from "../../../src/db/sqlite/hook-store";
import type { HookStatus, NewHook, RawHook } from "../../../src/hooks/store";
import { closeBackends, contractBackends, race } from "./backends";

afterEach(closeBackends);

const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);
const CHANNELS = ["github", "stripe", "shop"];
// The last two are long words whose index pieces (32 UTF-16 units a step) cut an emoji in half.
const THANKS = "ご注文いただき誠にありがとうございました今後ともどうぞよろしく😊お願いします";
const GRIN = `${"a".repeat(31)}😀b`;
const WORDS = ["invoice", "refund", "Zebra", "ünïcode", "order_42", "100%", "a\\b", 'say "hi"', "abab", "xababay", THANKS, GRIN];

/**
 * Senders' addresses beside the IPv4 ones: IPv6 in its forms (compressed or not, upper case, a
 * dotted IPv4 tail, a zone), IPv4-mapped, and texts an import can carry that are no address.
 */
const ODD_IPS = [
  "::ffff:10.0.0.1",
  "::FFFF:a00:2",
  "2001:db8::1",
  "2001:0DB8:0000::00ff",
  "2001:db9::1",
  "::1",
  "0:0:0:0:0:0:0:1",
  "fe80::1%eth0",
  // A zone longer than a field's value may be: found by ip: all the same.
  `fe80::3%${"z".repeat(300)}`,
  "febf:ffff::1",
  "fec0::1",
  "1:2:3:4:5:6:10.0.0.3",
  "::",
  "unknown",
  "1::2::3",
  "::ffff:300.0.0.1",
  "10.0.0.256",
  "",
  "' OR 1=1 --",
  "1:2:3:4:5:6:7:8:9",
  "12345::1",
  "\uff46\uff45\uff18\uff10::1",
  "10.0.0.1 ",
  "[::1]",
  "010.0.0.1",
  "::ffff:010.0.0.1",
  "1::2:3:4:5:6:7",
  "::1.2.3.4",
  "1:2:3:4:5::1.2.3.4",
  "1:2:3:4:5:6::1.2.3.4",
  `${"1:".repeat(300)}:1`,
];

/** A deterministic generator of varied hooks: methods, ips, headers, JSON and form bodies, binary bytes. */
function makeHooks(n: number): NewHook[] {
  let seed = 7;
  const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), (seed >>> 16) % k);
  const next = monotonicFactory();
  const out: NewHook[] = [];
  for (let i = 0; i < n; i++) {
    const createdAt = T0 + Math.floor(i / 4) * 1000 + (i % 3 === 0 ? 0 : rnd(3)); // several hooks per millisecond
    const channel = CHANNELS[rnd(3)]!;
    const word = WORDS[rnd(WORDS.length)]!;
    const headers: Record<string, string> = { "user-agent": rnd(2) ? "GitHub-Hookshot/abc" : "Stripe/1.0" };
    let body: Uint8Array;
    const kind = rnd(4);
    if (kind === 0) {
      headers["content-type"] = "application/json";
      const event = rnd(2) ? "push" : "pull_request";
      headers["x-github-event"] = event;
      // As GitHub sends them: a pull request has an action (its event type pull_request.<action>), a push a ref.
      const named = event === "push" ? { ref: word } : { action: word };
      body = new TextEncoder().encode(
        JSON.stringify({ ...named, n: rnd(5), ok: rnd(2) === 1, data: { items: [{ sku: `S${rnd(4)}` }, { sku: "X" }], note: null } }),
      );
    } else if (kind === 1) {
      headers["content-type"] = "application/json; charset=utf-8";
      headers["stripe-signature"] = "t=1,v1=abc";
      body = new TextEncoder().encode(
        JSON.stringify({
          type: rnd(2) ? "invoice.paid" : "charge.refunded",
          "a.b": "dotted",
          memo: WORDS[rnd(WORDS.length)],
          data: { object: { customer: `cus_${rnd(3)}` } },
        }),
      );
    } else if (kind === 2) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new TextEncoder().encode(`name=${encodeURIComponent(word)}&tag=a&tag=b`);
    } else {
      body = new Uint8Array([0, 255, 254, rnd(255), 0x61, 0x62, 0x63]);
    }
    out.push({
      id: next(createdAt).toLowerCase(),
      channel,
      method: ["POST", "PUT", "GET"][rnd(3)]!,
      query: rnd(3) === 0 ? `?ref=${word}` : "",
      headers: JSON.stringify(headers),
      body,
      ip: ((v4) => (i % 4 === 3 ? ODD_IPS[(i >> 2) % ODD_IPS.length]! : v4))(`10.0.0.${rnd(4)}`),
      createdAt,
      eventType: detectEventType(headers, body),
      // Authenticated on catch, not, or unknown (caught before it was recorded).
      verified: i % 3 === 0 ? true : i % 3 === 1 ? false : null,
    });
  }
  return out;
}

/** The values at a dotted path: an array's items by index, or any of them. */
function at(node: unknown, keys: string[]): unknown[] {
  if (keys.length === 0) return node === undefined ? [] : Array.isArray(node) ? node.flatMap((item) => at(item, [])) : [node];
  if (node === null || typeof node !== "object") return [];
  const [key, ...rest] = keys as [string, ...string[]];
  if (Array.isArray(node)) return [...(/^\d+$/.test(key) ? at(node[Number(key)], rest) : []), ...node.flatMap((item) => at(item, keys))];
  return Object.hasOwn(node, key) ? at((node as Record<string, unknown>)[key], rest) : [];
}

/** The corpus's tags by hook, and the hooks READER opened (set by the test before it searches). */
const TAGS = new Map<string, string[]>();
const OPENED = new Set<string>();
/** The corpus's hooks marked `refusal` (has:refusal). */
const REFUSED = new Set<string>();
const READER = "ann@example.com";

/** The documented rules, applied to one hook directly (docs/management-api.md, Search). */
async function matches(h: RawHook, q: string, f: Omit<SearchQuery, "terms" | "limit" | "after">): Promise<boolean> {
  if (f.channel !== undefined && h.channel !== f.channel) return false;
  if (f.status !== undefined && h.status !== f.status) return false;
  if (f.since !== undefined && h.createdAt < f.since) return false;
  if (f.until !== undefined && h.createdAt >= f.until) return false;
  // event_type as the plain list applies it: exact and case-sensitive, or a prefix with "*".
  if (f.eventType !== undefined && !(f.eventType.endsWith("*") ? h.eventType.startsWith(f.eventType.slice(0, -1)) : h.eventType === f.eventType)) return false;
  const payload = await decodePayload(h.headers, h.body);
  const text = `${h.query}\n${Object.entries(h.headers)
    .map(([k, v]) => `${k}: ${v}\n`)
    .join("")}\n${new TextDecoder().decode(h.body)}`
    .toLowerCase()
    .replace(/\0/g, " ");
  const node = parseSearch(q).node!;
  return holds(node, h, text, payload, f.now ?? Date.now());
}

/** The test's own reading of a query's tree against one hook (docs/search.md, the grammar). */
function holds(node: QueryNode, h: RawHook, text: string, payload: unknown, now: number): boolean {
  switch (node.kind) {
    case "and":
      return node.items.every((n) => holds(n, h, text, payload, now));
    case "or":
      return node.items.some((n) => holds(n, h, text, payload, now));
    case "not":
      return !holds(node.item, h, text, payload, now);
    case "word":
      return text.includes(node.word);
    case "status":
      return h.status === node.value;
    case "size":
      return node.op === ">" ? h.body.byteLength > node.bytes : h.body.byteLength < node.bytes;
    case "time": {
      const bound = node.relative ? now + node.ms : node.ms;
      return node.op === ">=" ? h.createdAt >= bound : h.createdAt < bound;
    }
    case "cidr": {
      const n = addressOf(h.ip);
      return n !== undefined && n >= BigInt(`0x${node.low}`) && n <= BigInt(`0x${node.high}`);
    }
    case "has":
      return node.value === "refusal" && REFUSED.has(h.id); // the corpus has no attempts
    case "tag":
      return (TAGS.get(h.id) ?? []).includes(node.value);
    case "unread":
      return !OPENED.has(h.id);
    case "contract":
      return false; // searched only by the hook list (splitContract)
    case "verified":
      return h.verified === node.value;
    case "field":
      break;
  }
  const { name, value: wanted, prefix } = node.term;
  let value: unknown;
  if (name.startsWith("payload.")) {
    const found = at(payload, name.slice(8).split(".")).filter((v) => v === null || typeof v !== "object");
    const texts = found.map((v) => (typeof v === "string" ? v : JSON.stringify(v)).toLowerCase()).filter((v) => v.length <= 200);
    return texts.some((have) => (prefix ? have.startsWith(wanted) : have === wanted));
  } else if (name.startsWith("header.")) value = h.headers[name.slice(7)];
  else if (name === "type") value = h.eventType || undefined;
  else value = { method: h.method, ip: h.ip, channel: h.channel }[name as "method"];
  if (typeof value !== "string" || value.length > 200) return false;
  const have = value.toLowerCase();
  return prefix ? have.startsWith(wanted) : have === wanted;
}

/** A sender's address as 128 bits (IPv4 as ::ffff:a.b.c.d), read by node:net and the URL parser; undefined if it is none. */
function addressOf(ip: string): bigint | undefined {
  const bare = ip.split("%")[0]!;
  if (isIP(bare) === 4) return bare.split(".").reduce((n, o) => n * 256n + BigInt(o), 0xffffn);
  if (isIP(bare) !== 6) return undefined;
  // The URL parser writes IPv6 compressed, lower case, its dotted tail in hex.
  const host = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const [left, right] = host.includes("::") ? host.split("::") : [host, undefined];
  const l = left ? left.split(":") : [];
  const r = right ? right.split(":") : [];
  const groups = right === undefined ? l : [...l, ...Array<string>(8 - l.length - r.length).fill("0"), ...r];
  return groups.reduce((n, g) => n * 65536n + BigInt(`0x${g}`), 0n);
}

/** `none`: a query that must find nothing (the others must find something, else they test little). */
const QUERIES: { q: string; f?: Omit<SearchQuery, "terms" | "limit" | "after">; none?: boolean }[] = [
  { q: "invoice" },
  // A word whose pieces are cut inside an emoji: found, and its count under NOT is the list's.
  { q: THANKS },
  { q: `-${THANKS}` },
  { q: `tag:billing -${THANKS}` },
  { q: `${GRIN} OR nothing-like-this` },
  { q: `-${GRIN}` },
  // SQLite's index answers hooks holding every trigram of a word ("abab" holds those of "ababa");
  // the check against each hook's document leaves only the hooks that hold the word.
  { q: "ababa" },
  { q: "VOICE hookshot" },
  { q: "ünï" },
  { q: '"say ""hi"""' },
  { q: "100%" },
  { q: "a\\b" },
  { q: "order_42 ref=" },
  { q: "hookshot", f: { channel: "github" } },
  { q: "payload.action:refund" },
  { q: "payload.n:3" },
  { q: "payload.ok:true method:POST" },
  { q: "payload.data.items.0.sku:s1" },
  { q: "payload.data.items.1.sku:x" },
  { q: "payload.data.note:null" },
  { q: "payload.data.object.customer:cus_*" },
  { q: "payload.tag:a" },
  { q: "payload.a.b:dotted" },
  { q: "header.user-agent:stripe/1.0" },
  { q: "header.user-agent:github*", f: { status: "handled" } },
  { q: "type:push" },
  { q: "type:invoice.paid", f: { channel: "stripe", status: "pending" } },
  { q: "type:pull_request* ip:10.0.0.1" },
  { q: "method:get", f: { since: T0 + 40_000, until: T0 + 90_000 } },
  { q: "channel:shop abc" },
  { q: "", f: { since: T0 + 10_000, until: T0 + 20_001 } },
  { q: "", f: { since: T0 + 30_000, status: "failed", channel: "github" } },
  { q: "nothing-like-this" },
  { q: "hookshot", f: { eventType: "push" } },
  { q: "hookshot", f: { eventType: "Push" }, none: true },
  { q: "type:Push", f: { eventType: "pull*" }, none: true },
  { q: "type:PULL_request.Zebra", f: { eventType: "pull*" } },
  { q: "invoice", f: { eventType: "invoice.*", channel: "stripe" } },
  { q: "", f: { since: T0 + 10_000, eventType: "charge.*" } },
  { q: "", f: { since: T0, eventType: "Charge.refunded" }, none: true },
  // "*" alone is every event type, the empty one (no type known) included.
  { q: "hookshot", f: { eventType: "*" } },
  // The grammar: NOT and -term, OR, parentheses, hook terms, sizes and times.
  { q: "invoice -refund" },
  { q: "invoice NOT refund" },
  { q: "-invoice", f: { channel: "stripe" } },
  { q: "NOT (invoice OR refund) hookshot" },
  { q: "zebra OR payload.data.object.customer:cus_1" },
  { q: "(zebra OR order_42) (method:put OR method:get) -channel:shop" },
  { q: "status:failed" },
  { q: "status:handled OR status:discarded" },
  { q: "-status:pending hookshot" },
  { q: "channel:str*" },
  { q: "event_type:invoice.* OR event:pull_request.*" },
  { q: "ip:10.0.0.2/31" },
  { q: "ip:10.0.0.0/8 -ip:10.0.0.1" },
  { q: "ip:10.0.0.0/30 status:failed" },
  // IPv6 blocks and addresses in any form; IPv4 blocks cover IPv4-mapped addresses (docs/search.md).
  { q: "ip:2001:db8::/32" },
  { q: "ip:2001:DB8:0:0::/64 -ip:2001:db8::1" },
  { q: "ip:::1/128" },
  { q: "ip:::1" },
  { q: "ip:0:0::0:1 OR ip:2001:db8::ff" },
  { q: "ip:fe80::/10" },
  { q: "ip:fe80::1" },
  { q: "ip:::ffff:10.0.0.0/120" },
  { q: "ip:::ffff:0:0/96 -ip:10.0.0.0/8", none: true },
  { q: "ip:::/0 -ip:10.0.0.0/8" },
  { q: "ip:10.0.0.1 hookshot" },
  { q: "ip:::ffff:a00:2" },
  { q: "ip:1:2:3:4:5:6:a00:3" },
  { q: "ip:0.0.0.0/0", f: { channel: "shop" } },
  { q: "NOT ip:::/0", f: { status: "handled" } },
  { q: "ip:unknown" },
  { q: "(ip:2001:db8::/32 OR ip:::1) -status:pending" },
  // ip: beside tags, marks, read marks and words (SQLite asks the index for its addresses' keys, and checks the rest).
  { q: "ip:10.0.0.0/30 tag:big status:failed" },
  { q: "(ip:10.0.0.1 OR ip:::1) tag:billing -refund" },
  { q: "ip:10.0.0.1 -hookshot tag:billing" },
  { q: "ip:10.0.0.1 is:unread" },
  { q: "ip:10.0.0.0/8 invoice -tag:big" },
  { q: "-ip:10.0.0.1 tag:billing" },
  { q: "ip:10.0.0.2 OR hookshot", f: { channel: "shop" } },
  { q: "ip:10.0.0.3 has:refusal" },
  // PostgreSQL leaves ip: bare (NULL for no address) under an even number of NOTs, false-made under an odd one.
  { q: "NOT NOT ip:::/0" },
  { q: "NOT (NOT ip:10.0.0.0/30 OR status:failed)" },
  { q: "NOT (ip:10.0.0.1 OR -ip:::ffff:0:0/96) hookshot" },
  { q: "larger:90B" },
  { q: "smaller:0.01KB" },
  { q: "larger:60B smaller:90B hookshot" },
  { q: "after:2026-11-26T10:00:40Z before:2026-11-26T10:01:10Z" },
  { q: "before:2026-11-26T10:00:10Z OR after:2026-11-26T10:01:30Z" },
  { q: "after:-10s", f: { now: T0 + 90_000 } },
  { q: "before:2026-11-26", none: true },
  { q: "has:attempts", none: true },
  { q: "NOT has:attempts invoice" },
  { q: "-(-zebra)" },
  { q: "invoice AND refund" },
  // Top-level status: and times narrow what is read; combined with the list's own filters.
  { q: "status:failed", f: { status: "handled" }, none: true },
  { q: "status:failed status:handled", none: true },
  { q: "status:failed hookshot", f: { status: "failed" } },
  { q: "hookshot after:2026-11-26T10:00:40Z", f: { since: T0 + 60_000 } },
  { q: "hookshot before:2026-11-26T10:01:00Z", f: { until: T0 + 30_000, since: T0 + 5_000 } },
  { q: "after:2026-11-26T10:00:20Z before:2026-11-26T10:00:30Z -hookshot" },
  // Tags (docs/tags.md) and read marks of READER.
  { q: "tag:billing" },
  { q: "tag:billing tag:big" },
  { q: "tag:billing -tag:big hookshot" },
  { q: "tag:big OR status:failed", f: { channel: "shop" } },
  { q: "tag:never", none: true },
  { q: "is:unread" },
  { q: "is:unread tag:big" },
  { q: "-is:unread invoice" },
  { q: "is:unread OR tag:billing", f: { status: "handled" } },
  // Hook terms alone, read by index ranges a chunk at a time (the tag's, a channel's, a status's).
  { q: "tag:billing status:handled" },
  { q: "tag:big after:2026-11-26T10:00:30Z before:2026-11-26T10:01:20Z -status:pending" },
  { q: "tag:billing", f: { channel: "shop", status: "pending" } },
  { q: "tag:big", f: { until: T0 + 50_000 } },
  // Words with a tag ANDed, read along the tag (joined to the status and channel asked) on SQLite.
  { q: "hookshot tag:billing status:handled" },
  { q: "hookshot tag:big after:2026-11-26T10:00:30Z before:2026-11-26T10:01:20Z status:failed" },
  { q: "hookshot tag:billing", f: { channel: "shop", status: "pending" } },
  { q: "hookshot tag:billing -tag:big", f: { status: "handled" } },
  // Words with a tag, counted along the tag's hooks (some lacking the words: left out by the text
  // index's candidates or by their check), with and without a date range, a status, a field term.
  { q: "invoice tag:billing" },
  { q: "efun tag:big" },
  { q: "refund tag:big after:2026-11-26T10:00:20Z" },
  { q: "zebra tag:billing before:2026-11-26T10:01:10Z after:2026-11-26T10:00:10Z" },
  { q: "invoice tag:billing -status:pending" },
  { q: "payload.memo:refund tag:billing" },
  { q: "hookshot tag:big", f: { since: T0 + 20_000, until: T0 + 80_000, eventType: "pull*" } },
  { q: "(zebra OR invoice) tag:big" },
  { q: "invoice tag:billing status:handled after:2026-11-26T10:00:30Z" },
  { q: "efun tag:big", f: { channel: "stripe", status: "pending" } },
  // An exact channel: ANDed is the list's channel filter on SQLite.
  { q: "channel:shop status:failed" },
  { q: "channel:shop" },
  { q: "channel:SHOP hookshot", f: { channel: "shop" } },
  { q: "channel:shop", f: { channel: "github" }, none: true },
  { q: "channel:shop channel:github", none: true },
  { q: "channel:shop -tag:big after:2026-11-26T10:00:30Z" },
  { q: "channel:shop", f: { channel: "shop" } },
  { q: "channel:github -hookshot", f: { status: "handled" } },
  { q: "channel:shop hookshot tag:billing", f: { since: T0 + 20_000 } },
  // Not ANDed at the top: a needle of the document, never the list's filter.
  { q: "channel:github OR tag:big hookshot" },
  { q: "-channel:shop tag:billing" },
  // Words with only tags, times and marks beside them: the index's rows alone on PostgreSQL.
  { q: "hookshot tag:big after:2026-11-26T10:00:30Z" },
  { q: "hookshot tag:billing", f: { since: T0 + 30_000, until: T0 + 80_000 } },
  { q: "invoice -tag:billing has:refusal" },
  { q: "(hookshot OR invoice) -is:unread before:2026-11-26T10:01:00Z" },
  { q: "hookshot tag:big", f: { eventType: "pull*" } },
  { q: "larger:60B", f: { channel: "github" } },
  { q: "smaller:60B", f: { status: "failed" } },
  { q: "ip:10.0.0.0/31", f: { channel: "stripe", status: "pending" } },
  { q: "-hookshot", f: { status: "handled" } },
  { q: "NOT status:pending", f: { channel: "github" } },
  { q: "after:2026-11-26T10:00:40Z", f: { channel: "shop" } },
  { q: "before:2026-11-26T10:00:50Z", f: { status: "discarded" } },
  { q: "after:2026-11-26T10:00:40Z status:handled" },
  { q: "verified:true" },
  { q: "verified:false invoice" },
  { q: "-verified:true", f: { channel: "stripe" } },
  { q: "verified:true OR tag:big", f: { status: "handled" } },
  { q: "verified:true verified:false", none: true },
  // Hooks whose delivery was refused before their catch (hook_marks).
  { q: "has:refusal" },
  { q: "has:refusal invoice" },
  { q: "-has:refusal", f: { channel: "github" } },
  { q: "has:refusal OR tag:big", f: { status: "handled" } },
  { q: "has:refusal tag:billing -status:pending" },
  { q: "has:refusal after:2026-11-26T10:00:30Z" },
  { q: "has:refusal has:attempts", none: true },
  // Saved views' shapes a count judges by what the index proves: a word the index does not hold
  // for a hook is absent from it, a word in a body's bytes present; an OR of needles asks the
  // union of their candidates; `type:`, `channel:` terms read the hook's columns.
  { q: "tag:big -refund" },
  { q: "tag:billing -invoice -zebra" },
  { q: "status:failed -invoice" },
  { q: "-refund" },
  { q: "-refund", f: { eventType: "push" } },
  { q: "-ababa tag:billing" },
  { q: "-hookshot -refund", f: { status: "handled" } },
  { q: "NOT (invoice OR refund) tag:big" },
  { q: "tag:big -refund after:2026-11-26T10:00:30Z" },
  { q: "type:invoice.paid tag:billing" },
  { q: "event:pull_request.* tag:big" },
  { q: "type:push -channel:github" },
  { q: "zebra OR refund" },
  { q: "(zebra OR refund) tag:big" },
  { q: "(zebra OR refund) status:failed" },
  { q: "(zebra OR payload.memo:refund) -invoice" },
  { q: "(invoice hookshot) OR order_42" },
  { q: "refund OR nothing-like-this" },
  { q: "zzqqx OR nothing-like-this", none: true },
  { q: "larger:90B tag:billing" },
  { q: "channel:shop refund" },
];

for (const backend of contractBackends(
  // SQLite's index is a database of its own, attached to the connection (in memory here).
  (db) => (
    attachSearchIndex(db.$client, ":memory:", true),
    {
      hooks: createHookStore(db),
      search: createSearchStore(db),
      // The same index counted in chunks of 16, read along a tag of at most 8 hooks, a tag's hooks
      // read whole up to 8: every path of a count.
      smallChunks: createSearchStore(db, { countChunk: 16, tagFirst: 8, driveMax: 8 }),
      tagSets: createSearchStore(db, { countChunk: 16, tagFirst: 8 }),
      // A tag's hooks counted with words: each chunk intersected with the text index's candidates
      // in its span, or each checked whole.
      tagCandidates: createSearchStore(db, { countChunk: 16, scanPerCheck: Number.POSITIVE_INFINITY }),
      tagChecks: createSearchStore(db, { countChunk: 16, scanPerCheck: 0 }),
      tags: createTagStore(sqliteDialect(db.$client)),
      reads: createReadStore(sqliteDialect(db.$client)),
      marks: createMarkStore(sqliteDialect(db.$client)),
    }
  ),
  (t) => ({
    hooks: createPgHookStore(t),
    search: createPgSearchStore(t),
    smallChunks: createPgSearchStore(t),
    tagSets: createPgSearchStore(t),
    tagCandidates: createPgSearchStore(t),
    tagChecks: createPgSearchStore(t),
    tags: createTagStore(pgDialect(t)),
    reads: createReadStore(pgDialect(t)),
    marks: createMarkStore(pgDialect(t)),
  }),
)) {
  describe(`search on ${backend.name}`, () => {
    test("every filter, alone and combined, paged with after, gives what a full scan gives", async () => {
      const { store, transaction } = await backend.open();
      const made = makeHooks(400);
      await transaction(() => store.hooks.insertHooks(made, () => []));
      // Some hooks change status; a few are deleted after they were indexed; one is never indexed by
      // the batch and found by the sweep's scan (unindexed).
      const statuses: HookStatus[] = ["handled", "failed", "discarded"];
      for (let i = 0; i < made.length; i += 5) {
        const h = (await store.hooks.getHook(made[i]!.id))!;
        await transaction(() => store.hooks.setStatus(h, statuses[i % 3]!, null));
      }
      const shuffled = [...made].sort((a, b) => ((a.body[0]! * 31 + a.id.charCodeAt(25)) % 17) - ((b.body[0]! * 31 + b.id.charCodeAt(25)) % 17));
      const left = shuffled.pop()!;
      for (let i = 0; i < shuffled.length; i += 64) {
        const docs = await Promise.all(
          shuffled.slice(i, i + 64).map(async (n) => {
            const h = (await store.hooks.getHook(n.id))!;
            return searchDoc(h, await decodePayload(h.headers, h.body));
          }),
        );
        await store.search.index(docs);
        await store.search.index(docs.slice(0, 3)); // indexing twice changes nothing
      }
      const { ids: missing } = await store.search.unindexed(undefined, 1000);
      expect(missing).toEqual([left.id]);
      const l = (await store.hooks.getHook(left.id))!;
      await store.search.index([searchDoc(l, await decodePayload(l.headers, l.body))]);
      expect((await store.search.unindexed(undefined, 1000)).ids).toEqual([]);
      const gone = made.filter((_, i) => i % 37 === 1);
      await transaction(() => store.hooks.deleteHooks(gone.map((h) => ({ id: h.id, channel: h.channel, status: "pending" }))));

      // Tags and READER's read marks on some hooks (deleted hooks' went with them).
      TAGS.clear();
      OPENED.clear();
      const billing = made.filter((_, i) => i % 3 === 0).map((h) => h.id);
      const big = made.filter((_, i) => i % 4 === 0).map((h) => h.id);
      expect(await store.tags.addTags(billing, ["billing"], T0)).toBeGreaterThan(0);
      await store.tags.addTags(big, ["big"], T0);
      for (const [ids, tag] of [
        [billing, "billing"],
        [big, "big"],
      ] as const)
        for (const id of ids) TAGS.set(id, [...(TAGS.get(id) ?? []), tag]);
      const opened = made.filter((_, i) => i % 5 < 2).map((h) => h.id);
      await store.reads.markRead(READER, opened, T0);
      await store.reads.markRead(
        "bob@example.com",
        made.map((h) => h.id),
        T0,
      );
      for (const id of opened) OPENED.add(id);
      REFUSED.clear();
      const refused = made.filter((_, i) => i % 7 === 2).map((h) => h.id);
      expect(await store.marks.mark(refused, "refusal", T0)).toBeGreaterThan(0);
      for (const id of refused) if (!gone.some((g) => g.id === id)) REFUSED.add(id);
      const all = (await Promise.all(made.map((h) => store.hooks.getHook(h.id)))).filter((h): h is RawHook => h !== undefined);
      all.sort((a, b) => (a.id < b.id ? 1 : -1));
      for (const { q, f = {}, none = false } of QUERIES) {
        const expected: string[] = [];
        for (const h of all) if (await matches(h, q, f)) expected.push(h.id);
        const got: string[] = [];
        for (let after: string | undefined, page = 0; page < 200; page++) {
          const terms = parseSearch(q);
          const ids = await store.search.search({ terms: { ...terms, node: terms.node && withReader(terms.node, READER) }, ...f, after, limit: 7 });
          got.push(...ids);
          if (ids.length < 7) break;
          after = ids[ids.length - 1];
        }
        expect({ q, f, got }).toEqual({ q, f, got: expected });
        // A count is the number of every page's hooks, and says "more" past its limit.
        const terms = parseSearch(q);
        const counted = { terms: { ...terms, node: terms.node && withReader(terms.node, READER) }, ...f };
        for (const [store_, max] of [
          [store.search, 1000],
          [store.smallChunks, 1000],
          [store.search, 3],
          [store.smallChunks, 20],
          [store.tagSets, 1000],
          [store.tagCandidates, 1000],
          [store.tagCandidates, 5],
          [store.tagChecks, 1000],
        ] as const)
          expect({ q, f, max, count: await store_.count(counted, max) }).toEqual({ q, f, max, count: Math.min(expected.length, max + 1) });
        if (!["nothing-like-this", "payload.a.b:dotted"].includes(q)) expect({ q, f, found: expected.length > 0 }).toEqual({ q, f, found: !none });
      }
    }, 60_000);

    test("a search or a count inside a transaction sees the transaction's writes (a savepoint's until it rolls back); outside, what is committed", async () => {
      const { store, transaction, another } = await backend.open();
      // On SQLite one connection is every instance's, and sees the open transaction.
      const other = backend.name === "postgres" ? await another() : undefined;
      const made = makeHooks(40);
      const ids = (hooks: readonly NewHook[]) => hooks.map((h) => h.id).sort((a, b) => (a < b ? 1 : -1));
      const fresh = made.filter((_, i) => i % 3 === 0);
      // A tag alone reads `hooks`; with a word (here one no hook holds, negated) `hook_search` too.
      const seen = (search: typeof store.search) =>
        Promise.all(
          ["tag:fresh", "tag:fresh -zzqqzz"].map(async (q) => ({
            q,
            ids: await search.search({ terms: parseSearch(q), limit: 100 }),
            count: await search.count({ terms: parseSearch(q) }, 1000),
          })),
        );
      const of = (hooks: readonly NewHook[]) => ["tag:fresh", "tag:fresh -zzqqzz"].map((q) => ({ q, ids: ids(hooks), count: hooks.length }));
      await transaction(async () => {
        await store.hooks.insertHooks(made, () => []);
        const docs = await Promise.all(
          made.map(async (n) => {
            const h = (await store.hooks.getHook(n.id))!;
            return searchDoc(h, await decodePayload(h.headers, h.body));
          }),
        );
        await store.search.index(docs);
        await store.tags.addTags(ids(fresh), ["fresh"], T0);
        expect(await seen(store.search)).toEqual(of(fresh));
        if (other) expect(await seen(other.search)).toEqual(of([]));
        await transaction(async () => {
          await store.tags.addTags(ids(made), ["fresh"], T0);
          expect(await seen(store.search)).toEqual(of(made));
          throw new Error("rolled back");
        }).catch(() => {});
        expect(await seen(store.search)).toEqual(of(fresh));
      });
      expect(await seen(store.search)).toEqual(of(fresh));
      if (other) expect(await seen(other.search)).toEqual(of(fresh));
    });

    test("hooks deleted while another instance indexes them, in any order, are deleted: no deadlock between the two", async () => {
      const { store, transaction, another } = await backend.open();
      // On SQLite one connection is every instance's (the factory would attach the index again).
      const other = backend.name === "postgres" ? await another() : store;
      const errors: string[] = [];
      for (let round = 0; round < 12; round++) {
        const made = makeHooks(150);
        await transaction(() => store.hooks.insertHooks(made, () => []));
        const docs = await Promise.all(
          made.map(async (n) => {
            const h = (await store.hooks.getHook(n.id))!;
            return searchDoc(h, await decodePayload(h.headers, h.body));
          }),
        );
        // The deletion goes oldest first (a channel's deletion, retention); the index gets hooks in
        // whatever order they were caught or swept in: here newest first.
        const keys = made.map((h) => ({ id: h.id, channel: h.channel, status: "pending" as const }));
        const { errors: failed } = await race<unknown>([transaction(() => store.hooks.deleteHooks(keys)), other.search.index(docs.toReversed())]);
        errors.push(...failed.map(String));
        const kept = (await Promise.all(made.map((h) => store.hooks.getHook(h.id)))).filter((h) => h !== undefined).length;
        if (kept > 0) errors.push(`round ${round}: ${kept} of ${made.length} hooks not deleted`);
      }
      expect(errors).toEqual([]);
    }, 60_000);
  });
}
