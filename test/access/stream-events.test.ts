/**
 * The stream's events that are not a hook's (a handler's circuit breaker, an alert's issue), sent to
 * a caller limited to channels: a member limited to `stripe-*` gets those of its channels (the
 * breaker of a handler that runs on one, the issue of one), never another's; a key scoped to it,
 * which may read neither handlers nor issues, gets none; a full key gets every one.
 */
import { afterEach, expect, test } from "bun:test";
import { AUTH, createTestApp, TOKEN, type TestApp } from "../helpers/app";
import { sseReader } from "../live/sse";

const CHEAP = { algorithm: "argon2id", memoryCost: 8, timeCost: 1 } as const;
const MEMBER = { email: "sam@example.com", password: "limited member pass" };
const SCOPED = { authorization: "Bearer scoped-token-0123456789" };
const ORIGIN = { origin: "http://localhost" };
/** Nothing listens there: every attempt fails at once. */
const DOWN = "http://127.0.0.1:9/down";
const failing = (name: string) => ({
  name,
  kind: "forward",
  url: DOWN,
  max_attempts: 5,
  backoff: { initial: "1h", max: "1h" },
  breaker: { failures: 1, cool_down: "1h" },
});

let app: TestApp | undefined;
const stops: (() => void)[] = [];
afterEach(() => {
  stops.splice(0).forEach((s) => s());
  app?.close();
});

test("a limited member's stream gets the breaker and issue events of its channels only, a scoped key's none; a full key's gets all", async () => {
  app = createTestApp({
    api_keys: [
      { label: "test", token: TOKEN },
      { label: "stripe-bot", token: "scoped-token-0123456789", scopes: ["read", "act"], channels: ["stripe-*"] },
    ],
    users: [{ email: MEMBER.email, role: "member", password_hash: Bun.password.hashSync(MEMBER.password, CHEAP), channels: ["stripe-*"] }],
    handlers: [failing("orders-fwd"), failing("stripe-fwd"), failing("both-fwd")],
    channels: [
      { name: "orders", handlers: ["orders-fwd", "both-fwd"] },
      { name: "stripe-live", handlers: ["stripe-fwd", "both-fwd"] },
    ],
    alerts: [{ name: "quiet", kind: "silence", channels: ["orders", "stripe-live"], for: "5m" }],
  });
  const session = await app.call("POST", "/ui/api/session", MEMBER, ORIGIN);
  expect(session.status).toBe(200);
  const member = { cookie: /^(mailroom_session=[^;]+)/.exec(session.headers.get("set-cookie")!)![1]!, ...ORIGIN };
  const open = async (path: string, headers: Record<string, string>) => {
    const res = await app!.app.handle(new Request(`http://localhost${path}`, { headers }));
    expect([path, res.status]).toEqual([path, 200]);
    const stream = sseReader(res);
    stops.push(() => void stream.cancel());
    return stream;
  };
  const streams = {
    full: await open("/v1/stream", AUTH),
    key: await open("/v1/stream", SCOPED),
    member: await open("/ui/api/stream", member),
  };

  // One hook in each channel: every handler fails once and its breaker opens.
  await app.catchHooks("orders", 1);
  await app.catchHooks("stripe-live", 1);
  await app.runner.tick();
  // Both channels quiet for 6 minutes: an issue each.
  app.clock.advance(6 * 60_000);
  await app.runner.tick();
  // A last hook: once a stream has sent it, it has sent every event before it.
  const [last] = await app.catchHooks("stripe-live", 1);

  const other = (e: { event: string }) => e.event.startsWith("handler.") || e.event.startsWith("issue.");
  const seen: Record<string, string[]> = {};
  for (const [who, stream] of Object.entries(streams)) {
    const got: string[] = [];
    for (;;) {
      const e = await stream.next((x) => other(x) || (x.event === "hook" && x.data.includes(last!)));
      if (e.event === "hook") break;
      const data = JSON.parse(e.data);
      got.push(`${e.event} ${data.handler ?? data.scope}`);
      // Nothing of the other channel in what a limited caller is sent.
      if (who !== "full") expect([who, e.data.includes("orders")]).toEqual([who, false]);
    }
    seen[who] = got.sort();
  }
  expect(seen.full).toEqual([
    "handler.breaker_open both-fwd",
    "handler.breaker_open orders-fwd",
    "handler.breaker_open stripe-fwd",
    "issue.opened orders",
    "issue.opened stripe-live",
  ]);
  expect(seen.member).toEqual(["handler.breaker_open both-fwd", "handler.breaker_open stripe-fwd", "issue.opened stripe-live"]);
  expect(seen.key).toEqual([]);
}, 30_000);
