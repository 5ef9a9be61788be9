/**
 * One change, one place: every mutating operation of every interface (management API, dashboard
 * API, command line, runner) shows on a live stream of the instance it was made on at once, and,
 * on PostgreSQL, on a second instance sharing the database (through the change feed, the only way
 * it gets there). The deadlines (EVENT_MS) only bound a failure on a busy machine; they are no
 * claim about how soon. Settings that streams
 * do not show (responses, guards, forwards, API keys, default guards) are checked by what the second
 * instance does with them. The executables are what users run: each backend starts the compiled one.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { buildBinary, startProcess, tempDir } from "./helpers/binary";
import { httpClient, TOKEN, type Reply } from "./helpers/client";
import { freshDatabase } from "./helpers/postgres";
import { sseReader, type SseEvent } from "./live/sse";
import { runCli } from "./cli/run";

const ADMIN = { email: "ada@example.com", password: "correct horse battery" };

type Node = {
  url: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  post(channel: string, body?: string, headers?: Record<string, string>, method?: string): Promise<Response>;
  /** A dashboard request with the admin's session. */
  ui(method: string, path: string, body?: unknown): Promise<Reply>;
  /** The next event of this node's stream that passes, within `ms`. */
  seen(pred: (e: SseEvent) => boolean, ms?: number): Promise<SseEvent>;
  stop(): void;
};

/** How long a test waits for an event or a setting to show before it fails. */
const EVENT_MS = 10_000;

/** A receiver for forward handlers: 200 to /ok, 200 after a second to /slow, 500 to anything else. */
const receiver = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(r) {
    const path = new URL(r.url).pathname;
    if (path === "/slow") await Bun.sleep(1000);
    return new Response("", { status: path === "/ok" || path === "/slow" ? 200 : 500 });
  },
});
afterAll(() => receiver.stop(true));

function config(storage: Record<string, unknown>) {
  return {
    api_keys: [{ label: "test", token: TOKEN }],
    users: [{ email: ADMIN.email, role: "admin", password_env: "ADA_PW" }],
    server: { host: "127.0.0.1", port: 0 },
    storage,
    handlers: [
      { name: "ok", kind: "forward", url: `http://127.0.0.1:${receiver.port}/ok`, max_attempts: 1 },
      { name: "broken", kind: "forward", url: `http://127.0.0.1:${receiver.port}/broken`, max_attempts: 1 },
      { name: "slow", kind: "forward", url: `http://127.0.0.1:${receiver.port}/slow`, max_attempts: 1 },
    ],
    channels: [
      { name: "served", handlers: ["ok"] },
      { name: "refused", handlers: ["broken"] },
      { name: "slow", handlers: ["slow"] },
    ],
  };
}

async function start(storage: Record<string, unknown> | ((dir: string) => Record<string, unknown>)): Promise<Node> {
  const dir = tempDir("mailroom-changes-");
  const file = join(dir, "mailroom.toml");
  writeFileSync(file, stringify(config(typeof storage === "function" ? storage(dir) : storage)));
  const run = await startProcess([await buildBinary(), "serve", "--config", file], dir, { ADA_PW: ADMIN.password, MAILROOM_DATABASE_URL: "" });
  const client = httpClient((path, init) => fetch(`${run.url}${path}`, { redirect: "manual", ...init }));
  const signIn = await client.call("POST", "/ui/api/session", ADMIN, { origin: run.url });
  const cookie = /^(mailroom_session=[^;]+)/.exec(signIn.headers.get("set-cookie") ?? "")?.[1] ?? "";
  const stream = sseReader(await fetch(`${run.url}/v1/stream`, { headers: { authorization: `Bearer ${TOKEN}` } }));
  // Events are read in order by one reader; a wait takes those that came since the last one.
  return {
    url: run.url,
    call: client.call,
    post: client.post,
    ui: (method, path, body) => client.call(method, `/ui/api${path}`, body, { cookie, origin: run.url }),
    seen: (pred, ms = EVENT_MS) => Promise.race([stream.next(pred), Bun.sleep(ms).then(() => Promise.reject(new Error(`no such event within ${ms} ms`)))]),
    stop() {
      stream.cancel();
      run.proc.kill("SIGKILL");
    },
  };
}

/** Resolves once check() is true; fails after `ms` (the positive control is the check itself). */
async function within(ms: number, what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await Bun.sleep(10);
  }
}

const hookEvent = (id: string, status?: string) => (e: SseEvent) =>
  e.event === "hook" && JSON.parse(e.data).id === id && (status === undefined || JSON.parse(e.data).status === status);
/** A hook event whose events include one of `kind` (a status alone may be an earlier change's, read late). */
const withEvent = (id: string, kind: string) => (e: SseEvent) =>
  e.event === "hook" && JSON.parse(e.data).id === id && JSON.parse(e.data).events.some((ev: { kind: string }) => ev.kind === kind);
const deletedEvent = (id: string) => (e: SseEvent) => e.event === "hook-deleted" && JSON.parse(e.data).id === id;
const channelEvent =
  (name: string, pred: (c: any) => boolean = () => true) =>
  (e: SseEvent) =>
    e.event === "channel" && JSON.parse(e.data).name === name && pred(JSON.parse(e.data));
const channelGone = (name: string) => (e: SseEvent) => e.event === "channel-deleted" && JSON.parse(e.data).name === name;

type Ctx = { a: Node; b?: Node; n: number };
type Row = {
  name: string;
  /** Makes the change on `a`; returns what its event looks like. */
  act(ctx: Ctx): Promise<(e: SseEvent) => boolean>;
};
/** A settings change: made on `a`, then seen by what `b` does (PostgreSQL) or `a` does (SQLite). */
type SettingRow = { name: string; act(ctx: Ctx): Promise<void>; holds(node: Node, ctx: Ctx): Promise<boolean> };

async function caught(node: Node, channel: string): Promise<string> {
  const res = await node.post(channel, '{"n":1}', { "content-type": "application/json" });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function ok(reply: Promise<Reply>): Promise<Reply> {
  const r = await reply;
  if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
  return r;
}

const cli = (node: Node, ...args: string[]) => runCli(args, { env: { MAILROOM_URL: node.url, MAILROOM_TOKEN: TOKEN } });

const ROWS: Row[] = [
  { name: "caught (catching endpoint)", act: async ({ a, n }) => hookEvent(await caught(a, `c${n}`), "pending") },
  {
    name: "DiscardHook (API)",
    act: async ({ a, n }) => {
      const id = await caught(a, `c${n}`);
      await ok(a.call("POST", `/v1/hooks/${id}/discard`));
      return withEvent(id, "discarded");
    },
  },
  {
    name: "RetryHook (API)",
    act: async ({ a, n }) => {
      const id = await caught(a, `c${n}`);
      await ok(a.call("POST", `/v1/hooks/${id}/discard`));
      await ok(a.call("POST", `/v1/hooks/${id}/retry`));
      return withEvent(id, "retried");
    },
  },
  {
    name: "ProcessHook (API)",
    act: async ({ a, n }) => {
      const id = await caught(a, `c${n}`);
      await ok(a.call("POST", `/v1/hooks/${id}/process`));
      return withEvent(id, "handled");
    },
  },
  {
    name: "FailHook (API)",
    act: async ({ a, n }) => {
      const id = await caught(a, `c${n}`);
      await ok(a.call("POST", `/v1/hooks/${id}/fail`, { message: "no" }));
      return withEvent(id, "failed");
    },
  },
  {
    name: "DeleteHook (API)",
    act: async ({ a, n }) => {
      const id = await caught(a, `c${n}`);
      await ok(a.call("DELETE", `/v1/hooks/${id}`));
      return deletedEvent(id);
    },
  },
  {
    // The handler takes a second: what the streams show is the redelivery itself, not its outcome.
    name: "RedeliverHook (API)",
    act: async ({ a }) => {
      const id = await caught(a, "slow");
      await a.seen(hookEvent(id, "handled"));
      await ok(a.call("POST", `/v1/hooks/${id}/redeliver`));
      const retried = withEvent(id, "retried");
      return (e) => retried(e) && JSON.parse(e.data).status === "pending";
    },
  },
  { name: "runner: every handler succeeded", act: async ({ a }) => withEvent(await caught(a, "served"), "handled") },
  { name: "runner: a handler gave up", act: async ({ a }) => withEvent(await caught(a, "refused"), "failed") },
  {
    name: "PauseChannel (API)",
    act: async ({ a, n }) => {
      await caught(a, `c${n}`);
      await ok(a.call("POST", `/v1/channels/c${n}/pause`));
      return channelEvent(`c${n}`, (c) => c.paused === true);
    },
  },
  {
    name: "ResumeChannel (API)",
    act: async ({ a, n }) => {
      await caught(a, `c${n}`);
      await ok(a.call("POST", `/v1/channels/c${n}/pause`));
      await ok(a.call("POST", `/v1/channels/c${n}/resume`));
      return channelEvent(`c${n}`, (c) => c.paused === false);
    },
  },
  {
    name: "DeleteChannel (API)",
    act: async ({ a, n }) => {
      await caught(a, `c${n}`);
      await ok(a.call("DELETE", `/v1/channels/c${n}`));
      return channelGone(`c${n}`);
    },
  },
  {
    name: "discard (dashboard)",
    act: async ({ a, n }) => {
      const id = await caught(a, `c${n}`);
      await ok(a.ui("POST", `/hooks/${id}/discard`));
      return withEvent(id, "discarded");
    },
  },
  {
    name: "bulk discard (dashboard)",
    act: async ({ a, n }) => {
      const id = await caught(a, `c${n}`);
      await ok(a.ui("POST", "/bulk/discard", { channel: `c${n}`, status: "pending", until: id }));
      return withEvent(id, "discarded");
    },
  },
  {
    name: "channel guards (dashboard)",
    act: async ({ a, n }) => {
      await caught(a, `c${n}`);
      await ok(a.ui("POST", "/guards", { name: `posts${n}`, kind: "method", settings: { allow: ["POST"] } }));
      await ok(a.ui("PUT", `/channels/c${n}/guards`, { guards: [`posts${n}`] }));
      return channelEvent(`c${n}`, (c) => JSON.stringify(c.guards) === JSON.stringify([`posts${n}`]));
    },
  },
  {
    name: "hooks discard (CLI)",
    act: async ({ a, n }) => {
      const id = await caught(a, `c${n}`);
      expect((await cli(a, "hooks", "discard", id)).code).toBe(0);
      return withEvent(id, "discarded");
    },
  },
  {
    name: "hooks delete (CLI)",
    act: async ({ a, n }) => {
      const id = await caught(a, `c${n}`);
      expect((await cli(a, "hooks", "delete", id)).code).toBe(0);
      return deletedEvent(id);
    },
  },
];

const SETTINGS: SettingRow[] = [
  {
    name: "custom response (API)",
    act: async ({ a, n }) => {
      await caught(a, `r${n}`);
      await ok(a.call("PUT", `/v1/channels/r${n}/response`, { status: 202, body: "thanks" }));
    },
    holds: async (node, { n }) => (await node.post(`r${n}`, "{}")).status === 202,
  },
  {
    name: "a guard on a channel (dashboard)",
    act: async ({ a, n }) => {
      await caught(a, `g${n}`);
      await ok(a.ui("POST", "/guards", { name: `only-post${n}`, kind: "method", settings: { allow: ["POST"] } }));
      await ok(a.ui("PUT", `/channels/g${n}/guards`, { guards: [`only-post${n}`] }));
    },
    holds: async (node, { n }) => (await node.post(`g${n}`, "{}", {}, "PUT")).status === 405,
  },
  {
    name: "default guards (dashboard)",
    act: async ({ a, n }) => {
      await ok(a.ui("POST", "/guards", { name: `default${n}`, kind: "method", settings: { allow: ["POST"] } }));
      await ok(a.ui("PUT", "/default-guards", { guards: [`default${n}`] }));
    },
    holds: async (node, { n }) => (await node.post(`fresh${n}-${Math.random().toString(36).slice(2, 8)}`, "{}", {}, "PUT")).status === 405,
  },
  {
    name: "an API key created, then revoked (dashboard)",
    act: async (ctx) => {
      const { token } = (await ok(ctx.a.ui("POST", "/api-keys", { label: `k${ctx.n}` }))).json;
      (ctx as Ctx & { token?: string }).token = token;
      const other = ctx.b ?? ctx.a;
      await within(
        EVENT_MS,
        "the new key works",
        async () => (await other.call("GET", "/v1/channels", undefined, { authorization: `Bearer ${token}` })).status === 200,
      );
      await ok(ctx.a.ui("DELETE", `/api-keys/k${ctx.n}`));
    },
    holds: async (node, ctx) =>
      (await node.call("GET", "/v1/channels", undefined, { authorization: `Bearer ${(ctx as Ctx & { token?: string }).token}` })).status === 401,
  },
];

async function walk(nodes: () => { a: Node; b?: Node }) {
  let n = 0;
  for (const row of ROWS) {
    test(row.name, async () => {
      const { a, b } = nodes();
      const ctx = { a, b, n: ++n };
      const pred = await row.act(ctx);
      await a.seen(pred);
      if (b) await b.seen(pred);
    }, 30_000);
  }
  for (const row of SETTINGS) {
    test(row.name, async () => {
      const { a, b } = nodes();
      const ctx = { a, b, n: ++n };
      await row.act(ctx);
      await within(EVENT_MS, `${row.name} on ${b ? "the other instance" : "this instance"}`, () => row.holds(b ?? a, ctx));
    }, 30_000);
  }
}

describe("every change on a stream at once (SQLite)", () => {
  let a: Node;
  beforeAll(async () => {
    a = await start((dir) => ({ path: join(dir, "data", "mailroom.db") }));
  }, 60_000);
  afterAll(() => a?.stop());
  walk(() => ({ a }));
});

describe("every change on both instances' streams (PostgreSQL)", () => {
  let a: Node;
  let b: Node;
  beforeAll(async () => {
    const url = await freshDatabase();
    [a, b] = await Promise.all([start({ url }), start({ url })]);
  }, 60_000);
  afterAll(() => {
    a?.stop();
    b?.stop();
  });
  walk(() => ({ a, b }));
});
