import { expect, test } from "bun:test";
import { monotonicFactory } from "ulid";
import { migratePostgres } from "../../src/db/pg/migrate";
import { openPostgres } from "../../src/db/pg/open";
import { createPgSearchStore } from "../../src/db/pg/search-store";
import { pgTransactor } from "../../src/db/pg/transactor";
import { hookIpInet } from "../../src/schema/pg/ip";
import { ipHex, ipRange, parseSearch } from "../../src/search/query";
import { freshDatabase } from "../helpers/postgres";

const HOOKS = 30_000;
/** A busy sender (a tenth of the hooks), a few IPv6 senders, and ips that are no address. */
function ipOf(i: number): string {
  if (i % 10 === 0) return "203.0.113.18";
  if (i % 101 === 1) return ["unknown", "", "fe80::1%eth0", "::ffff:010.0.0.1", "1::2::3", "2001:DB8::7"][i % 6]!;
  if (i % 7 === 0) return `2001:db8::${(i % 3000).toString(16)}`;
  return `198.51.100.${i % 250}`;
}

// `ip:` on PostgreSQL reads the index hooks_ip_id (the sender's address as an inet, then the id)
// instead of every hook: at 1,000,000 hooks a block no hook is in took 5.2 s a page before
// (docs/benchmarks.md). The planner takes it only when the statement repeats the index's
// expression exactly and leaves it bare (not inside COALESCE); on a table this size a scan of
// every hook would cost it far more, so a plan without the index means the two drifted apart.
test("ip: pages and counts read the index of the senders' addresses, and find what a scan finds", async () => {
  const url = await freshDatabase();
  const sql = await openPostgres(url, { max: 1 });
  const reads = await openPostgres(url, { max: 1, customPlans: true });
  try {
    await migratePostgres(sql);
    const ulid = monotonicFactory();
    const t0 = Date.UTC(2026, 10, 1);
    const ids = Array.from({ length: HOOKS }, (_, i) => ulid(t0 + i * 1000).toLowerCase());
    const ips = ids.map((_, i) => ipOf(i));
    const status = ids.map((_, i) => (i % 3 === 0 ? "failed" : "handled"));
    await sql.unsafe(
      `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at)
       SELECT id, 'c', status, 'POST', '', '{}', '\\x00'::bytea, ip, 0 FROM unnest($1::text[], $2::text[], $3::text[]) AS u(id, ip, status)`,
      [ids, ips, status],
    );
    await sql.unsafe("ANALYZE hooks");

    const t = pgTransactor(sql, reads);
    const store = createPgSearchStore(t);
    const plans: string[] = [];
    const explained = createPgSearchStore({
      ...t,
      read: async (text, params) => {
        const rows = (await t.read(`EXPLAIN ${text}`, params)) as { "QUERY PLAN": string }[];
        plans.push(rows.map((r) => r["QUERY PLAN"]).join("\n"));
        return [];
      },
    });
    /** The hooks a full scan finds: each ip read as the query language reads it. */
    const scan = (q: string, also: (i: number) => boolean = () => true) => {
      const blocks = q
        .split(" OR ")
        .map((b) => b.replace(/^-?ip:| .*$/g, ""))
        .map((b) => ipRange(b)!);
      return ids
        .filter((_, i) => {
          const hex = ipHex(ips[i]!);
          const inside = hex !== undefined && blocks.some((b) => hex >= b.low && hex <= b.high);
          return (q.startsWith("-") ? !inside : inside) && also(i);
        })
        .reverse();
    };
    // index: the page (and the count, unless busy) reads hooks_ip_id; one: the busy sender's page
    // comes from it in id order, its 3,000 hooks unsorted (their count may read the table).
    const cases: { q: string; index: boolean; one?: true; busy?: true; also?: (i: number) => boolean }[] = [
      { q: "ip:203.0.113.18", index: true, one: true, busy: true },
      { q: "ip:198.51.100.7", index: true },
      { q: "ip:10.0.0.0/8", index: true },
      { q: "ip:2001:db8::/124", index: true },
      { q: "ip:198.51.100.7 OR ip:2001:db8::7", index: true },
      { q: "ip:198.51.100.7 status:failed", index: true, also: (i) => status[i] === "failed" },
      // Every hook but a tenth, those with no address included: nothing to narrow, no index asked.
      { q: "-ip:203.0.113.18", index: false },
    ];
    for (const c of cases) {
      const want = scan(c.q, c.also);
      const terms = parseSearch(c.q);
      expect({ q: c.q, page: await store.search({ terms, limit: 50 }), count: await store.count({ terms }, 10_000) }).toEqual({
        q: c.q,
        page: want.slice(0, 50),
        count: Math.min(want.length, 10_001),
      });
      plans.length = 0;
      await explained.search({ terms, limit: 50 });
      await explained.count({ terms }, 10_000);
      const [page, count] = plans as [string, string];
      if (!c.index) continue;
      expect({ q: c.q, page: page.includes("hooks_ip_id"), count: c.busy || count.includes("hooks_ip_id") }).toEqual({ q: c.q, page: true, count: true });
      if (c.one) expect({ q: c.q, sorted: page.includes("Sort") }).toEqual({ q: c.q, sorted: false });
    }
  } finally {
    await sql.close();
    await reads.close();
  }
}, 60_000);

/**
 * Every text the address patterns take is an `inet` to PostgreSQL: the index's expression casts
 * what passed them on every insert, so one it refused would fail a catch. Random addresses in every
 * form the patterns have (8 groups; `::` with groups on either side; a dotted IPv4 tail; upper and
 * lower case; groups of 1 to 4 digits; zones), and texts next to them that the patterns refuse,
 * inserted as hooks: none fails, and each is an address exactly when ipHex says so.
 */
test("every ip the patterns take is cast to an inet on insert, and no other text is", async () => {
  const url = await freshDatabase();
  const sql = await openPostgres(url, { max: 1 });
  try {
    await migratePostgres(sql);
    // mulberry32: 32-bit steps (a multiply past 2^53 in doubles loses the low bits and repeats).
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n);
    };
    const group = () => {
      const g = rnd(0x10000)
        .toString(16)
        .padStart(4, "0")
        .slice(0, 1 + rnd(4));
      return rnd(2) ? g.toUpperCase() : g;
    };
    const octet = () => String(rnd(256));
    const dotted = () => [octet(), octet(), octet(), octet()].join(".");
    const groups = (n: number) => Array.from({ length: n }, group);
    function address(): string {
      const tail = rnd(4) === 0;
      const room = tail ? 6 : 8;
      const text = (() => {
        if (rnd(3) === 0) return groups(room).join(":");
        // `::` stands for at least one zero group.
        const left = rnd(room);
        const right = rnd(room - left);
        return `${groups(left).join(":")}::${groups(right).join(":")}`;
      })();
      const full = tail ? `${text}${text.endsWith(":") ? "" : ":"}${dotted()}` : text;
      return rnd(8) === 0 ? `${full}%${["eth0", "1", "z".repeat(40)][rnd(3)]}` : full;
    }
    const ips: string[] = [];
    for (let i = 0; i < 4000; i++) ips.push(address(), dotted());
    // The edges of each form, then near misses: one group too many, a bad octet, two `::`, a leading zero, a group of 5 digits, junk.
    ips.push("1:2:3:4:5:6:7::", "::1:2:3:4:5:6:7", "1:2:3:4:5:6:255.255.255.255", "::0.0.0.0", "FFFF::", "::", `fe80::1%${"z".repeat(10_000)}`, "0.0.0.0");
    ips.push("1:2:3:4:5:6:7:8:9", "256.1.1.1", "1::2::3", "01.2.3.4", "12345::1", "::ffff:1.2.3", "1.2.3.4.5", ":1:2", "g::1", "");
    const ulid = monotonicFactory();
    const ids = ips.map(() => ulid().toLowerCase());
    await sql.unsafe(
      `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at)
       SELECT id, 'c', 'handled', 'POST', '', '{}', '\\x00'::bytea, ip, 0 FROM unnest($1::text[], $2::text[]) AS u(id, ip)`,
      [ids, ips],
    );
    const rows = (await sql.unsafe(`SELECT ip, ${hookIpInet("ip")} IS NOT NULL AS address FROM hooks`)) as { ip: string; address: boolean }[];
    expect(rows.length).toBe(ips.length);
    const disagree = rows.filter((r) => r.address !== (ipHex(r.ip) !== undefined));
    expect(disagree).toEqual([]);
    expect(rows.filter((r) => r.address).length).toBeGreaterThan(7900);
    // The addresses spread over every form: distinct, with groups of 4 digits, upper case, dotted tails, zones, 8 plain groups.
    const v6 = ips.slice(0, 8000).filter((_, i) => i % 2 === 0);
    expect(new Set(ips).size).toBeGreaterThan(7000);
    for (const form of [/[0-9a-f]{4}/, /[A-F]/, /:\d+\.\d+\.\d+\.\d+/, /%/, /^([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}$/, /::/])
      expect(v6.filter((ip) => form.test(ip)).length).toBeGreaterThan(200);
  } finally {
    await sql.close();
  }
});
