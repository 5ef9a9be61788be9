/**
 * Access by channel (the route-by-role matrix, extended): a member limited to `stripe-*` and an API
 * key scoped to it, against hooks of another channel. Every /v1 and /ui/api route is called with
 * the other channel's hook id and name: none reveals them (single-hook routes answer 404, lists,
 * counts, searches, the stream and exports leave them out), and nothing of theirs changes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { eventually, startTarget, type Target } from "../helpers/target";

const CHEAP = { algorithm: "argon2id", memoryCost: 8, timeCost: 1 } as const;
const MEMBER = { email: "sam@example.com", password: "limited member pass" };
const SCOPED = { authorization: "Bearer scoped-token-0123456789" };
const READER = { authorization: "Bearer reader-token-0123456789" };
const FULL = { authorization: "Bearer test-token-0123456789" };
/** In every hook of the hidden channel: no answer to a limited caller may carry it. */
const SECRET = "zebra-secret-marker";
const TOKEN = { "x-token": "0123456789abcdef" };
const TRANSLATION_ROOTS = new Set(["account", "orders", "translate", "rates", "calculate"]);

let t: Target;
let member: Record<string, string>;
let own: string[];
let hidden: string[];

beforeAll(async () => {
  t = await startTarget({
    api_keys: [
      { label: "test", token: "test-token-0123456789" },
      { label: "stripe-bot", token: "scoped-token-0123456789", scopes: ["read", "act"], channels: ["stripe-*"] },
      { label: "stripe-reader", token: "reader-token-0123456789", scopes: ["read"], channels: ["stripe-*"] },
    ],
    users: [
      { email: "ada@example.com", role: "admin", password_hash: Bun.password.hashSync("the admin's password", CHEAP) },
      { email: MEMBER.email, role: "member", password_hash: Bun.password.hashSync(MEMBER.password, CHEAP), channels: ["stripe-*"] },
    ],
    guards: [{ name: "strict", kind: "token", header: "x-token", secret: "0123456789abcdef" }],
    handlers: [{ name: "orders-fwd", kind: "forward", url: "http://127.0.0.1:9/orders" }],
    channels: [{ name: "orders", guards: ["strict"], handlers: ["orders-fwd"] }],
  });
  const origin = await t.url();
  const res = await t.call("POST", "/ui/api/session", MEMBER, { origin });
  expect(res.status).toBe(200);
  member = { cookie: /^(mailroom_session=[^;]+)/.exec(res.headers.get("set-cookie")!)![1]!, origin };
  own = [];
  hidden = [];
  for (let i = 0; i < 3; i++) {
    own.push(((await (await t.post("stripe-live", `{"n":${i},"note":"visible-one"}`)).json()) as { id: string }).id);
    hidden.push(((await (await t.post("orders", `{"n":${i},"note":"${SECRET}"}`, TOKEN)).json()) as { id: string }).id);
  }
  // A refusal in the hidden channel (a guard it does not pass).
  expect((await t.post("orders", `{"note":"${SECRET}"}`)).status).toBe(401);
  // Searchable: the index has caught up once a search by the full key finds every hook.
  await eventually("the search index", async () => (await t.call("GET", "/v1/hooks?q=note", undefined, FULL)).json.length === 6 || undefined);
});
afterAll(() => t?.stop());

/** Every route of the app, read from it in process; the requests go to the target. */
function routes(prefix: RegExp): { method: string; path: string }[] {
  return (createTestApp().app.routes as { method: string; path: string }[]).filter((r) => r.method !== "ALL" && prefix.test(r.path));
}

function expectHidden(what: string, text: string) {
  expect([what, text.includes(SECRET) || hidden.some((id) => text.includes(id)) || text.includes('"orders"')]).toEqual([what, false]);
}

describe("a caller limited to channels", () => {
  const callers = () =>
    [
      ["key scoped to stripe-*", "/v1", SCOPED],
      ["read-only key scoped to stripe-*", "/v1", READER],
      ["member limited to stripe-*", "/ui/api", member],
    ] as const;

  test("every /v1 and /ui/api route, given the other channel's hook and name, never reveals it; single-hook routes answer 404", async () => {
    const all = [
      ...routes(/^\/v1\//).filter((r) => !TRANSLATION_ROOTS.has(r.path.split("/")[2]!)),
      ...routes(/^\/ui\/api\//).filter((r) => !/\/(session|setup)/.test(r.path)),
    ];
    expect(all.length).toBeGreaterThanOrEqual(100);
    for (const [who, base, headers] of callers()) {
      let checked = 0;
      // The stream never ends: its own test below.
      for (const { method, path } of all.filter((r) => r.path.startsWith(`${base}/`) && !r.path.endsWith("/stream"))) {
        const concrete = path
          .replace(":id", hidden[0]!)
          .replace(":name", "orders")
          .replace(/:(label|email|action|file|handler)/g, "orders");
        const res = await t.call(method, concrete, method === "GET" || method === "DELETE" ? undefined : {}, headers);
        expect(res.status).not.toBe(500);
        if (res.status < 300) expectHidden(`${who} ${method} ${path}`, res.text);
        // A single hook's or channel's route: not found (or refused outright; a body it does not take is a 400 before any look-up).
        if (/\/(hooks\/:id|channels\/:name)(\/|$)/.test(path)) {
          const expected = method === "GET" ? [404] : [400, 403, 404];
          expect([who, method, path, expected.includes(res.status)]).toEqual([who, method, path, true]);
        }
        checked++;
      }
      expect(checked).toBeGreaterThan(20);
    }
    // Nothing of the hidden channel changed.
    for (const id of hidden) {
      const hook = (await t.call("GET", `/v1/hooks/${id}?include=extensions`, undefined, FULL)).json;
      expect([hook.status, hook.tags ?? []]).toEqual(["pending", []]);
    }
    expect((await t.call("GET", "/v1/channels/orders", undefined, FULL)).json.paused).toBe(false);
  });

  test("lists, searches, counts, refusals, channels, unread, views and bulk show only its channels", async () => {
    for (const [who, base, headers] of callers()) {
      const listed = await t.call("GET", `${base}/hooks`, undefined, headers);
      expect([who, listed.json.map((h: { id: string }) => h.id).sort()]).toEqual([who, [...own].sort()]);
      for (const q of ["note", `"${SECRET}"`, "channel:orders", "status:pending", "-channel:stripe-live"]) {
        const found = await t.call("GET", `${base}/hooks?q=${encodeURIComponent(q)}`, undefined, headers);
        expect([who, q, found.status]).toEqual([who, q, 200]);
        expectHidden(`${who} q=${q}`, found.text);
      }
      const own1 = await t.call("GET", `${base}/hooks?q=visible`, undefined, headers);
      expect([who, own1.json.length]).toEqual([who, 3]);
      const channels = await t.call("GET", `${base}/channels`, undefined, headers);
      expect([who, channels.json.map((c: { name: string }) => c.name)]).toEqual([who, ["stripe-live"]]);
      const refusals = await t.call("GET", `${base}/refusals`, undefined, headers);
      expect([who, refusals.json]).toEqual([who, []]);
      for (const path of [`${base}/unread`, `${base}/views?include=count`, `${base}/hooks/export`]) {
        const res = await t.call("GET", path, undefined, headers);
        expect([who, path, res.status]).toEqual([who, path, 200]);
        expectHidden(`${who} ${path}`, res.text);
      }
      const exported = await t.call("GET", `${base}/hooks/export`, undefined, headers);
      expect([who, exported.text.trim().split("\n").length]).toEqual([who, 3]);
    }
    // Another caller's bulk job (its query names the hidden channel) is neither listed nor found.
    const job = await t.call("POST", "/v1/hooks/bulk", { query: "channel:orders -channel:orders", action: "discard" }, FULL);
    expect(job.status).toBe(200);
    for (const [who, base, headers] of callers()) {
      const jobs = await t.call("GET", `${base}/hooks/bulk`, undefined, headers);
      expect([who, jobs.status, jobs.text.includes("channel:orders")]).toEqual([who, 200, false]);
      expect([who, (await t.call("GET", `${base}/hooks/bulk/${job.json.id}`, undefined, headers)).status]).toEqual([who, 404]);
    }
    for (const [who, base, headers] of callers().filter(([, , h]) => h !== READER)) {
      for (const query of ["channel:orders", "status:pending", "note"]) {
        const dry = await t.call("POST", `${base}/hooks/bulk`, { query, action: "discard", dry_run: true }, headers);
        expect([who, query, dry.json?.count]).toEqual([who, query, query === "channel:orders" ? 0 : 3]);
      }
    }
  });

  test("a saved view's count counts only its channels' hooks", async () => {
    // Shared views (an admin's): each caller counts them over what it may see.
    const views: [string, string, number, number][] = [
      // name, query, count for the full key, count for a limited caller
      ["notes", "note", 6, 3],
      ["pending", "status:pending", 6, 3],
      ["hidden", "channel:orders", 3, 0],
      ["not-live", "-channel:stripe-live", 3, 0],
      ["secret-or-visible", `"${SECRET}" OR visible`, 6, 3],
      ["unread-pending", "is:unread status:pending -tag:never", 6, 3],
    ];
    for (const [name, query] of views) expect((await t.call("POST", "/v1/views", { name, query, shared: true }, FULL)).status).toBe(200);
    const counts = async (base: string, headers: Record<string, string>) => {
      const res = await t.call("GET", `${base}/views?include=count`, undefined, headers);
      expect(res.status).toBe(200);
      return Object.fromEntries((res.json as { name: string; count: number; count_exact: boolean }[]).map((v) => [v.name, [v.count, v.count_exact]]));
    };
    const full = await counts("/v1", FULL);
    for (const [name, , all] of views) expect([name, full[name]]).toEqual([name, [all, true]]);
    for (const [who, base, headers] of callers()) {
      const seen = await counts(base, headers);
      for (const [name, , , limited] of views) expect([who, name, seen[name]]).toEqual([who, name, [limited, true]]);
    }
    for (const [name] of views) await t.call("DELETE", `/v1/views/${name}?shared=true`, undefined, FULL);
  });

  test("a read-only key reads but does not act; a scoped key cannot reach management routes", async () => {
    expect((await t.call("POST", `/v1/hooks/${own[0]}/discard`, {}, READER)).status).toBe(403);
    expect((await t.call("GET", `/v1/hooks/${own[0]}`, undefined, READER)).status).toBe(200);
    for (const [method, path] of [
      ["GET", "/v1/issues"],
      ["GET", "/v1/handlers"],
      ["GET", "/v1/notifiers"],
      ["DELETE", "/v1/channels/stripe-live"],
      ["PUT", "/v1/channels/stripe-live"],
      ["GET", "/metrics"],
    ] as const) {
      const res = await t.call(method, path, method === "PUT" ? { guards: [] } : undefined, SCOPED);
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
  });

  test("the stream sends only its channels' hooks", async () => {
    for (const [who, base, headers] of callers()) {
      const controller = new AbortController();
      const res = await t.fetch(`${base}/stream`, { headers, signal: controller.signal });
      expect([who, res.status]).toEqual([who, 200]);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      await t.post("orders", `{"note":"${SECRET}"}`, TOKEN);
      const mine = ((await (await t.post("stripe-live", `{"note":"streamed"}`)).json()) as { id: string }).id;
      while (!text.includes(mine)) text += decoder.decode((await reader.read()).value, { stream: true });
      controller.abort();
      expectHidden(`${who} stream`, text);
    }
  });
});
