/** GET /v1/hooks?q= over HTTP (docs/management-api.md, Search): runs against the app and the executables. */
import { expect, test } from "bun:test";
import { AUTH, startTarget } from "../helpers/target";

const json = { "content-type": "application/json" };

test("a hook is found by its words and fields as soon as its sender has the 200; filters, summaries and paging combine", async () => {
  const t = await startTarget();
  const sent: string[] = [];
  const send = async (channel: string, body: unknown, headers: Record<string, string> = {}) => {
    const r = await t.post(channel, JSON.stringify(body), { ...json, ...headers });
    expect(r.status).toBe(200);
  };
  await send("gh", { action: "opened", repo: { name: "mailroom" } }, { "x-github-event": "pull_request" });
  await send("gh", { action: "closed", repo: { name: "mailroom" } }, { "x-github-event": "pull_request" });
  await send("stripe", { type: "invoice.paid", data: { object: { customer: "cus_Rare123" } } }, { "stripe-signature": "t=1,v1=x" });
  for (let i = 0; i < 5; i++) await send("bulk", { n: i, word: "common" });
  const ids = (await t.call("GET", "/v1/hooks?limit=100")).json.map((h: { id: string }) => h.id);
  sent.push(...ids);

  const search = async (query: string) => {
    const r = await t.call("GET", `/v1/hooks?${query}`);
    expect({ query, status: r.status }).toEqual({ query, status: 200 });
    return r.json as { id: string; channel: string; body?: string; size?: number }[];
  };
  // Found at once: the search indexes what this instance caught first.
  expect((await search("q=RARE123")).map((h) => h.channel)).toEqual(["stripe"]);
  expect((await search("q=payload.data.object.customer:cus_rare123")).length).toBe(1);
  expect((await search("q=type:invoice.paid")).length).toBe(1);
  // event_type: (the Hook extension's name) and event: are other names of type:.
  expect((await search("q=event_type:invoice.paid")).length).toBe(1);
  expect((await search("q=event:invoice.*")).length).toBe(1);
  expect((await search("q=type:pull_request.closed+payload.action:closed")).length).toBe(1);
  expect((await search("q=mailroom+opened")).length).toBe(1);
  expect((await search("q=header.x-github-event:pull*&channel=gh")).length).toBe(2);
  expect((await search("q=header.x-github-event:pull*&channel=stripe")).length).toBe(0);
  expect((await search("q=method:post+ip:127.0.0.1")).length).toBe(8);
  expect((await search("q=mailroom&status=handled")).length).toBe(0);
  // event_type means with a search what it means without one: exact and case-sensitive, or a prefix.
  // (GitHub's event type carries the action: pull_request.opened.)
  expect((await search("event_type=pull_request.opened")).length).toBe(1);
  expect((await search("q=mailroom&event_type=pull_request.closed")).length).toBe(1);
  expect((await search("q=mailroom&event_type=pull_request")).length).toBe(0);
  expect((await search("q=mailroom&event_type=Pull_Request.opened")).length).toBe(0);
  expect((await search("event_type=Pull_Request.opened")).length).toBe(0);
  expect((await search("q=mailroom&event_type=pull*")).length).toBe(2);
  expect((await search("q=mailroom&event_type=Pull*")).length).toBe(0);

  // Newest first, paged with after, as summaries.
  const first = await search("q=common&limit=2&fields=summary");
  expect(first.map((h) => h.id)).toEqual(sent.filter((_, i) => i < 2));
  expect(first[0]!.body).toBeUndefined();
  expect(first[0]!.size).toBeGreaterThan(0);
  expect((first[0] as { preview?: string }).preview).toBe('{"n":4,"word":"common"}');
  const rest = await search(`q=common&limit=10&after=${first[1]!.id}`);
  expect(rest.map((h) => h.id)).toEqual(sent.slice(2, 5));

  // since and until (RFC 3339) with and without words.
  expect((await search("q=common&until=2000-01-01T00:00:00Z")).length).toBe(0);
  expect((await search("since=2000-01-01T00:00:00Z&limit=100")).length).toBe(8);
  expect((await search("q=common&since=2999-01-01T00:00:00%2B01:00")).length).toBe(0);

  // Bad searches are 400s that say what is wrong.
  for (const [query, message] of [
    ["q=ab", "too short"],
    ["q=%22open", "not closed"],
    ["q=payload.x:", "needs a value"],
    ["since=yesterday", "since: must be an RFC 3339 time"],
    // Impossible dates and times are refused, not rolled over into March or the next day.
    ["since=2026-02-30T00:00:00Z", "since: must be an RFC 3339 time"],
    ["until=2026-11-26T24:00:00Z", "until: must be an RFC 3339 time"],
    ["until=2026-11-26T10:00:00%2B24:00", "until: must be an RFC 3339 time"],
    ["since=2026-11-26T10:00:00", "since: must be an RFC 3339 time"],
    [`q=${"x".repeat(1001)}`, "q: must be"],
  ] as const) {
    const r = await t.call("GET", `/v1/hooks?${query}`);
    expect({ query, status: r.status, code: r.json.code }).toEqual({ query, status: 400, code: 3 });
    expect(r.json.message).toContain(message);
  }
  await t.stop();
}, 30_000);

test("a deleted hook is no longer found; a channel's deletion takes its hooks out of the index", async () => {
  const t = await startTarget();
  await t.post("a", JSON.stringify({ w: "vanishing" }), json);
  await t.post("b", JSON.stringify({ w: "vanishing" }), json);
  const found = (await t.call("GET", "/v1/hooks?q=vanishing")).json as { id: string; channel: string }[];
  expect(found.length).toBe(2);
  await t.call("DELETE", `/v1/hooks/${found.find((h) => h.channel === "a")!.id}`);
  expect((await t.call("GET", "/v1/hooks?q=vanishing")).json.map((h: { channel: string }) => h.channel)).toEqual(["b"]);
  await t.call("DELETE", "/v1/channels/b");
  expect((await t.call("GET", "/v1/hooks?q=vanishing")).json).toEqual([]);
  await t.stop();
});

test("a status no hook of the channel is in finds and counts nothing; once a hook moves into it, it is found and counted, with its channel and with none", async () => {
  const t = await startTarget();
  for (const channel of ["a", "a", "b"]) expect((await t.post(channel, JSON.stringify({ w: "statusword" }), json)).status).toBe(200);
  const ids = async (q: string) => ((await t.call("GET", `/v1/hooks?q=${encodeURIComponent(q)}`)).json as { id: string }[]).map((h) => h.id);
  const all = await ids("statusword");
  expect(all.length).toBe(3);
  expect(await ids("statusword status:discarded")).toEqual([]);
  expect(await ids("statusword status:pending channel:a")).toEqual(all.slice(1));
  // A saved view's count reads the same way (the store's count, not its list).
  expect((await t.call("POST", "/v1/views", { name: "gone", query: "statusword status:discarded" })).status).toBe(200);
  const counted = async () =>
    ((await t.call("GET", "/v1/views?include=count")).json as { name: string; count: number }[]).find((v) => v.name === "gone")!.count;
  expect(await counted()).toBe(0);
  const [inB] = await ids("statusword channel:b");
  expect((await t.call("POST", `/v1/hooks/${inB}/discard`)).status).toBe(200);
  expect(await counted()).toBe(1);
  expect(await ids("statusword status:discarded")).toEqual([inB!]);
  expect(await ids("statusword status:discarded channel:b")).toEqual([inB!]);
  expect(await ids("statusword status:discarded channel:a")).toEqual([]);
  expect((await t.call("GET", "/v1/hooks?q=statusword&status=discarded")).json.map((h: { id: string }) => h.id)).toEqual([inB!]);
  await t.stop();
});

test("the query language over HTTP: NOT, OR, parentheses and hook terms; hostile queries answer 400 with where and what, never 500", async () => {
  const t = await startTarget();
  for (const [channel, body] of [
    ["gh", { action: "opened", word: "alpha" }],
    ["gh", { action: "closed", word: "beta" }],
    ["stripe", { type: "invoice.paid", word: "alpha", pad: "x".repeat(2000) }],
  ] as const)
    expect((await t.post(channel, JSON.stringify(body), json)).status).toBe(200);
  const all = (await t.call("GET", "/v1/hooks?limit=100")).json as { id: string; channel: string }[];
  const ids = async (q: string) => ((await t.call("GET", `/v1/hooks?q=${encodeURIComponent(q)}`)).json as { id: string }[]).map((h) => h.id);
  const [big, closed, opened] = all.map((h) => h.id) as [string, string, string];
  expect(await ids("alpha -channel:stripe")).toEqual([opened]);
  expect(await ids("alpha NOT larger:1KB")).toEqual([opened]);
  expect(await ids("(beta OR invoice) channel:gh*")).toEqual([closed]);
  expect(await ids("payload.action:opened OR payload.action:closed")).toEqual([closed, opened]);
  expect(await ids("larger:1KB")).toEqual([big]);
  expect(await ids("status:pending after:-1h")).toEqual([big, closed, opened]);
  expect(await ids("before:2000-01-01")).toEqual([]);
  expect(await ids("ip:127.0.0.0/8 -ip:10.0.0.0/8 smaller:1KB")).toEqual([closed, opened]);

  for (const [q, where, what] of [
    ["(alpha", 7, 'expected ")" to close the "(" at character 1'],
    ["alpha)", 6, 'unexpected ")"'],
    ["alpha OR", 9, "expected a term"],
    ["NOT", 4, 'expected a term after "NOT"'],
    ["status:lost", 8, "expected one of pending"],
    ["larger:big", 8, "expected a size"],
    ["after:yesterday", 7, "expected a date"],
    ["ip:10.0.0.0/33", 4, "expected a CIDR block such as 10.0.0.0/8 or 2001:db8::/32"],
    ["alpha ip:2001:db8::/129", 10, "expected a CIDR block"],
    ["ip:fe80::/x", 4, "expected a CIDR block"],
    ["ip:1::2::3/64", 4, "expected a CIDR block"],
    ["ip:12345::/16", 4, "expected a CIDR block"],
    ["ip:fe80::1%eth0/64", 4, "expected a CIDR block"],
    [`${"(".repeat(60)}alpha${")".repeat(60)}`, 34, "nesting is deeper than 32"],
    ["alpha\u0000)", 7, 'unexpected ")"'],
    ["\u200f", 1, '"\\u200f" is too short'],
    ["\u202ealpha (", 9, "expected a term"],
    ["verified:maybe", 10, "expected true or false"],
    ["has:everything", 5, "expected attempts or refusal"],
  ] as const) {
    const r = await t.call("GET", `/v1/hooks?q=${encodeURIComponent(q)}`);
    expect({ q, status: r.status, code: r.json.code, details: r.json.details }).toEqual({ q, status: 400, code: 3, details: [] });
    expect({ q, message: r.json.message }).toEqual({ q, message: expect.stringContaining(`at character ${where}: ${what}`) });
  }
  // Names of Object.prototype are no terms: free words.
  for (const q of ["constructor:abc", "__proto__:abc", "toString:x"]) expect((await t.call("GET", `/v1/hooks?q=${encodeURIComponent(q)}`)).status).toBe(200);
  // A 10 KB query, and one of every ASCII control and bracket, answer 400 too, never 500.
  for (const q of ["(".repeat(10_000), `${"alpha OR ".repeat(1200)}`, Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join("")]) {
    const r = await t.call("GET", `/v1/hooks?q=${encodeURIComponent(q)}`);
    expect(r.status).toBe(400);
  }
  await t.stop();
}, 30_000);

test("ip: takes IPv6 blocks and addresses in any form; IPv4 blocks hold IPv4-mapped senders; an ip that is no address matches no block", async () => {
  const t = await startTarget();
  const ips = ["2001:db8::1", "2001:DB8:0:0::ff", "2001:db9::1", "::1", "fe80::1%eth0", "::ffff:10.0.0.1", "10.0.0.2", "not-an-ip", "1:2:3:4:5:6:7:8:9"];
  const lines = ips.map((ip, i) =>
    JSON.stringify({
      id: `01jd00000000000000000000${String(i + 10)}`,
      channel: "imported",
      status: "pending",
      method: "POST",
      query: "",
      headers: { "content-type": "application/json" },
      body: Buffer.from(JSON.stringify({ ip })).toString("base64"),
      ip,
      created_at: "2026-01-01T00:00:00Z",
      events: [],
    }),
  );
  const imported = await t.call("POST", "/v1/hooks/import", `${lines.join("\n")}\n`, { ...AUTH, "content-type": "application/x-ndjson" });
  expect(imported.json).toEqual({ imported: ips.length, skipped: 0, failed: [] });
  const found = async (q: string) => {
    const r = await t.call("GET", `/v1/hooks?limit=100&q=${encodeURIComponent(q)}`);
    expect({ q, status: r.status }).toEqual({ q, status: 200 });
    return (r.json as { ip: string }[]).map((h) => h.ip).sort();
  };
  expect(await found("ip:2001:db8::/32")).toEqual(["2001:DB8:0:0::ff", "2001:db8::1"]);
  expect(await found("ip:2001:0db8:0000:0000:0000:0000:0000:00FF")).toEqual(["2001:DB8:0:0::ff"]);
  expect(await found("ip:2001:db8::/31")).toEqual(["2001:DB8:0:0::ff", "2001:db8::1", "2001:db9::1"]);
  expect(await found("ip:::1/128")).toEqual(["::1"]);
  expect(await found("ip:0:0:0:0:0:0:0:1")).toEqual(["::1"]);
  expect(await found("ip:fe80::/10")).toEqual(["fe80::1%eth0"]);
  expect(await found("ip:10.0.0.0/8")).toEqual(["10.0.0.2", "::ffff:10.0.0.1"]);
  expect(await found("ip:10.0.0.1")).toEqual(["::ffff:10.0.0.1"]);
  expect(await found("ip:::ffff:10.0.0.2")).toEqual(["10.0.0.2"]);
  expect(await found("channel:imported -ip:::/0")).toEqual(["1:2:3:4:5:6:7:8:9", "not-an-ip"]);
  // A value that is no address is compared as text, as any field term.
  expect(await found("ip:not-an-ip")).toEqual(["not-an-ip"]);
  await t.stop();
}, 30_000);
