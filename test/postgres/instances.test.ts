/**
 * Several executables on one PostgreSQL database, each able to take any request: what one does,
 * the others see; work is shared, never doubled; money stays exact.
 */
import { afterEach, expect, test } from "bun:test";
import { SQL } from "bun";
import { statSync } from "node:fs";
import { join } from "node:path";
import { buildBinary } from "../helpers/binary";
import { eventually, killInstances, newDatabase, startInstance } from "../helpers/instances";
import { basic } from "../translate/setup";

afterEach(killInstances);

/**
 * How long a change made on one instance may take to show on another before the test fails. The
 * change feed (LISTEN/NOTIFY) is the only way it gets there (nothing reads it again on a timer), so
 * this only bounds a failure: on a busy machine a second was not always enough.
 */
const FEED_MS = 10_000;

test("a hook caught by one instance is listed, shown and acted on by another at once", async () => {
  const url = await newDatabase();
  const [a, b] = await Promise.all([startInstance(url), startInstance(url)]);
  const { id } = (await (await a.post("gh", '{"x":1}', { "content-type": "application/json" })).json()) as { id: string };
  expect((await b.call("GET", `/v1/hooks/${id}`)).json).toMatchObject({ id, channel: "gh", status: "pending" });
  expect((await b.call("GET", "/v1/hooks?channel=gh")).json.map((h: { id: string }) => h.id)).toEqual([id]);
  expect((await b.call("POST", `/v1/hooks/${id}/discard`)).status).toBe(200);
  expect((await a.call("GET", `/v1/hooks/${id}`)).json.status).toBe("discarded");
  expect((await a.call("GET", "/v1/channels/gh")).json.stats).toMatchObject({ pending: "0", discarded: "1" });
});

test("an instance on PostgreSQL creates the folder of its CLI credentials for its owner only (700), as one on SQLite does", async () => {
  const a = await startInstance(await newDatabase());
  expect((statSync(join(a.dir, "data")).mode & 0o777).toString(8)).toBe("700");
  expect((statSync(join(a.dir, "data", "mailroom.credentials.json")).mode & 0o777).toString(8)).toBe("600");
});

test("pausing a channel on one instance applies on the others", async () => {
  const url = await newDatabase();
  const [a, b, c] = await Promise.all([startInstance(url), startInstance(url), startInstance(url)]);
  await a.post("orders", "{}");
  expect((await a.call("POST", "/v1/channels/orders/pause")).status).toBe(200);
  for (const other of [b, c]) {
    await eventually(async () => (await other.post("orders", "{}")).status === 503, FEED_MS, "pause seen by another instance");
  }
  await c.call("POST", "/v1/channels/orders/resume");
  await eventually(async () => (await a.post("orders", "{}")).status === 200, FEED_MS, "resume seen by another instance");
});

test("a custom response, and guards set in the dashboard, set on one instance apply on the others", async () => {
  const url = await newDatabase();
  const raw = { users: [{ email: "ada@example.com", role: "admin", password_env: "ADA_PW" }], guards: [{ name: "posts", kind: "method", allow: ["POST"] }] };
  const env = { ADA_PW: "correct horse battery" };
  const [a, b] = await Promise.all([startInstance(url, raw, env), startInstance(url, raw, env)]);
  await a.post("shop", "{}");
  expect((await a.call("PUT", "/v1/channels/shop/response", { status: 202, body: "thanks" })).status).toBe(200);
  await eventually(async () => (await b.post("shop", "{}")).status === 202, FEED_MS, "the response seen by another instance");
  const origin = { origin: a.url };
  const signIn = await a.call("POST", "/ui/api/session", { email: "ada@example.com", password: env.ADA_PW }, origin);
  expect(signIn.status).toBe(200);
  const cookie = /^(mailroom_session=[^;]+)/.exec(signIn.headers.get("set-cookie") ?? "")![1]!;
  expect((await a.call("PUT", "/ui/api/channels/shop/guards", { guards: ["posts"] }, { cookie, ...origin })).status).toBe(200);
  await eventually(async () => (await b.post("shop", "{}", {}, "PUT")).status === 405, FEED_MS, "the guard seen by another instance");
  // The session works on the other instance too (one database).
  expect((await b.call("GET", "/ui/api/channels", undefined, { cookie, origin: b.url })).status).toBe(200);
});

test("channel counters are right under concurrent writers on two instances", async () => {
  const url = await newDatabase();
  const [a, b] = await Promise.all([startInstance(url), startInstance(url)]);
  await Promise.all([a.catchHooks("busy", 600), b.catchHooks("busy", 600), a.catchHooks("other", 100)]);
  const ids = await b.call("GET", "/v1/hooks?channel=busy&limit=100");
  expect(ids.status).toBe(200);
  for (const i of [a, b]) {
    expect((await i.call("GET", "/v1/channels/busy")).json.stats).toMatchObject({ pending: "1200" });
    expect((await i.call("GET", "/v1/channels/other")).json.stats).toMatchObject({ pending: "100" });
  }
  // Discards on both instances at once move the same counters.
  const page = (await a.call("GET", "/v1/hooks?channel=busy&limit=100")).json.map((h: { id: string }) => h.id) as string[];
  await Promise.all(page.map((id, k) => (k % 2 ? a : b).call("POST", `/v1/hooks/${id}/discard`)));
  expect((await b.call("GET", "/v1/channels/busy")).json.stats).toMatchObject({ pending: "1100", discarded: "100" });
});

test("instances starting together on a new database migrate it once", async () => {
  const url = await newDatabase();
  const three = await Promise.all([startInstance(url), startInstance(url), startInstance(url)]);
  for (const i of three) expect((await i.call("GET", "/v1/channels")).status).toBe(200);
  const sql = new SQL(url);
  const rows = await sql`SELECT hash, COUNT(*)::int AS n FROM drizzle.__drizzle_migrations GROUP BY hash`;
  await sql.close();
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((r: { n: number }) => r.n === 1)).toBe(true);
});

test("each handler attempt runs on one instance; an instance killed mid-attempt has it taken over after its lease", async () => {
  const url = await newDatabase();
  const seen = new Map<string, number>();
  let hold = true;
  const waiting: (() => void)[] = [];
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const body = await req.text();
      const n = body === "slow" ? "slow" : req.headers.get("x-mailroom-hook-id")!;
      seen.set(n, (seen.get(n) ?? 0) + 1);
      if (hold && n === "slow") await new Promise<void>((r) => waiting.push(r));
      return new Response("ok");
    },
  });
  try {
    const raw = {
      storage: { attempt_lease: "1s" },
      handlers: [{ name: "fwd", kind: "forward", url: `http://127.0.0.1:${receiver.port}/in`, concurrency: 4, timeout: "30s" }],
      channels: [{ name: "jobs", handlers: ["fwd"] }],
    };
    const [a, b] = await Promise.all([startInstance(url, raw), startInstance(url, raw)]);
    // Many hooks caught on both: each is delivered exactly once.
    await Promise.all([a.catchHooks("jobs", 40), b.catchHooks("jobs", 40)]);
    await eventually(async () => (await a.call("GET", "/v1/channels/jobs")).json.stats.handled === "80", 10_000, "80 handled");
    expect(seen.size).toBe(80);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);

    // A slow attempt held by whichever instance claimed it; that instance is killed mid-attempt.
    const { id } = (await (await a.post("jobs", "slow")).json()) as { id: string };
    await eventually(async () => seen.get("slow") === 1, 5000, "the slow attempt started");
    const attempts = (await b.call("GET", `/v1/hooks/${id}/attempts`)).json as { outcome: string }[];
    expect(attempts.map((x) => x.outcome)).toEqual(["running"]);
    // The holder is the instance whose lease it is; kill both in turn is not needed: kill the holder.
    const sql = new SQL(url);
    const lease = async () =>
      ((await sql`SELECT lease_owner AS owner, lease_until::float8 AS until FROM attempts WHERE hook_id = ${id}`) as { owner: string; until: number }[])[0]!;
    const first = await lease();
    const { owner } = first;
    const holder = a.output().includes(owner) ? a : b.output().includes(owner) ? b : a;
    const other = holder === a ? b : a;
    // Past the end of its first lease, a live holder has renewed it, and nobody took it over.
    await eventually(
      async () => {
        const now = await lease();
        return Date.now() > first.until && now.owner === owner && now.until > first.until;
      },
      15_000,
      "the lease renewed past its first end",
    );
    await sql.close();
    expect(seen.get("slow")).toBe(1);
    hold = false;
    await holder.kill();
    for (const release of waiting.splice(0)) release();
    await eventually(async () => (await other.call("GET", `/v1/hooks/${id}`)).json.status === "handled", 10_000, "taken over and handled");
    expect(seen.get("slow")).toBe(2); // at least once: the killed instance never recorded its try
    const after = (await other.call("GET", `/v1/hooks/${id}/attempts`)).json as { outcome: string }[];
    expect(after.map((x) => x.outcome)).toEqual(["succeeded"]);
  } finally {
    receiver.stop(true);
  }
});

test("money stays exact under concurrent orders arriving at different instances", async () => {
  const url = await newDatabase();
  const raw = {
    translate: { accounts: [{ id: 1, balance: 10, api_keys: ["customer-key-1"] }], admins: [{ api_key: "admin-key-1" }], rate_limit: { requests: 0 } },
  };
  const [a, b, c] = await Promise.all([startInstance(url, raw), startInstance(url, raw), startInstance(url, raw)]);
  // 10.00 USD; each order costs 0.40: exactly 25 of 150 fit, wherever they arrive.
  const body = (i: number) => ({ source_language: "en", target_languages: ["de"], text: `order ${String(i).padStart(14, "0")}` });
  const results = await Promise.all(
    Array.from({ length: 150 }, (_, i) => [a, b, c][i % 3]!.call("POST", i % 2 ? "/v1/translate" : "/api/v1/translate", body(i), basic("customer-key-1"))),
  );
  expect(results.filter((r) => r.status === 200)).toHaveLength(25);
  expect(results.filter((r) => r.status === 400).every((r) => r.json.code === "INSUFFICIENT_FUNDS")).toBe(true);
  for (const i of [a, b, c]) {
    const { json } = await i.call("GET", "/v1/account", undefined, basic("customer-key-1"));
    expect({ balance: json.balance, reserved: json.reserved }).toEqual({ balance: 0, reserved: 10 });
  }
  expect((await b.call("GET", "/admin/v1/accounts/1/ledger", undefined, basic("admin-key-1"))).json.consistent).toBe(true);
});

test("50 copies of one delivery split over two instances store one hook; every copy is answered 200 with its id", async () => {
  const url = await newDatabase();
  const raw = { channels: [{ name: "gh", dedup: {} }] };
  const [a, b] = await Promise.all([startInstance(url, raw), startInstance(url, raw)]);
  for (let round = 0; round < 3; round++) {
    const headers = { "x-github-delivery": `delivery-${round}`, "content-type": "application/json" };
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).post("gh", `{"copy":${i}}`, headers)));
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200));
    const ids = new Set(await Promise.all(replies.map(async (r) => ((await r.json()) as { id: string }).id)));
    expect(ids.size).toBe(1);
    // Answered only once committed: the id is there on either instance as soon as any copy has it.
    const [id] = [...ids];
    expect((await b.call("GET", `/v1/hooks/${id}`)).status).toBe(200);
  }
  for (const i of [a, b]) {
    expect((await i.call("GET", "/v1/hooks?channel=gh&limit=100")).json).toHaveLength(3);
    expect((await i.call("GET", "/v1/channels/gh")).json.stats).toMatchObject({ pending: "3" });
    expect((await i.call("GET", "/v1/channels/gh/dedup")).json.dropped).toBe("147");
  }
});

test("each instance keeps its own local CLI key: starting another, or resetting one, never revokes it", async () => {
  const url = await newDatabase();
  const tokenOf = async (i: { dir: string }) => JSON.parse(await Bun.file(join(i.dir, "data/mailroom.credentials.json")).text()).token as string;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  // Started together on a new database: each saves a token of its own, and each works everywhere.
  const [a, b] = await Promise.all([startInstance(url), startInstance(url)]);
  const c = await startInstance(url);
  const tokens = await Promise.all([a, b, c].map(tokenOf));
  expect(new Set(tokens).size).toBe(3);
  for (const i of [a, b, c]) for (const token of tokens) expect((await i.call("GET", "/v1/channels", undefined, bearer(token))).status).toBe(200);
  // A reset on c's machine replaces c's key only.
  const proc = Bun.spawn([await buildBinary(), "token", "reset", "--config", join(c.dir, "mailroom.toml")], { cwd: c.dir, stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  await eventually(async () => (await a.call("GET", "/v1/channels", undefined, bearer(tokens[2]!))).status === 401, FEED_MS, "c's old token refused");
  for (const i of [a, b, c]) {
    expect((await i.call("GET", "/v1/channels", undefined, bearer(out.trim()))).status).toBe(200);
    expect((await i.call("GET", "/v1/channels", undefined, bearer(tokens[0]!))).status).toBe(200);
    expect((await i.call("GET", "/v1/channels", undefined, bearer(tokens[1]!))).status).toBe(200);
  }
});

test("a pause or guards sent to one instance while another deletes the channel are refused with 409, never lost", async () => {
  const url = await newDatabase();
  const [a, b] = await Promise.all([startInstance(url), startInstance(url)]);
  await a.catchHooks("going", 3000);
  const deleted = a.call("DELETE", "/v1/channels/going");
  // The deletion is under way once the first batch of hooks is gone.
  await eventually(async () => Number((await b.call("GET", "/v1/channels/going")).json.stats?.pending ?? 0) < 3000, 10_000, "the deletion started");
  const paused = await b.call("POST", "/v1/channels/going/pause");
  const again = await b.call("DELETE", "/v1/channels/going");
  expect((await deleted).status).toBe(200);
  // Refused while the deletion runs (it used to answer 200, and the pause was lost).
  expect(paused.status).toBe(409);
  expect(paused.json).toMatchObject({ code: 9, details: [] });
  expect(paused.json.message).toContain("being deleted");
  expect(again.status).toBe(409);
  expect((await b.call("GET", "/v1/channels/going")).status).toBe(404);
  // Once it is over, a channel caught again pauses as usual.
  expect((await b.post("going", "{}")).status).toBe(200);
  expect((await a.call("POST", "/v1/channels/going/pause")).json.paused).toBe(true);
});
