/**
 * A hostile relay upstream: a stand-in in this process that speaks the wire protocol and sends
 * one bad frame per connection. The laptop (a whole Mailroom in this process, its relay client
 * dialling out) refuses each one: nothing stored, nothing acknowledged, the reason logged, the
 * connection dropped; it reconnects, and a good hook after all that is stored.
 */
import { afterEach, expect, test } from "bun:test";
import type { ServerWebSocket } from "bun";
import { systemClock } from "../../src/lib/clock";
import { createIdFactory } from "../../src/lib/ids";
import type { Log } from "../../src/lib/log";
import { startRelayClient } from "../../src/relay/client";
import { encodeHook, type RelayedHook } from "../../src/relay/protocol";
import { createTestApp } from "../helpers/app";
import { eventually } from "../helpers/instances";

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const newId = createIdFactory(systemClock);
const good = (over: Partial<RelayedHook> = {}): RelayedHook => ({
  id: newId(),
  channel: "stripe",
  method: "POST",
  query: "channel=stripe",
  headers: { "content-type": "application/json" },
  body: new TextEncoder().encode('{"ok":true}'),
  ip: "203.0.113.9",
  createdAt: Date.now(),
  eventType: "invoice.paid",
  ...over,
});

/** A frame encodeHook cannot make: its JSON header as given. */
function rawFrame(meta: Record<string, unknown>, body = new Uint8Array(0)): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(meta));
  const out = new Uint8Array(4 + json.byteLength + body.byteLength);
  new DataView(out.buffer).setUint32(0, json.byteLength);
  out.set(json, 4);
  out.set(body, 4 + json.byteLength);
  return out;
}
const wire = (h: RelayedHook) => ({ ...h, created_at: h.createdAt, event_type: h.eventType, body: undefined });

const manyHeaders = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`x-h${i}`, "v"]));

/** One per connection: what upstream sends after its hello (none for `noHello`), and the reason the laptop logs. */
const HOSTILE: { name: string; frame: () => Uint8Array; reason: RegExp; noHello?: boolean; maxBody?: number }[] = [
  { name: "a channel it never asked for", frame: () => encodeHook(good({ channel: "github" })), reason: /channel "github", not the channel asked for/ },
  { name: 'a channel named ""', frame: () => encodeHook(good({ channel: "" })), reason: /channel "", not the channel asked for/ },
  {
    name: "a channel ../../../etc/passwd",
    frame: () => encodeHook(good({ channel: "../../../etc/passwd" })),
    reason: /channel "\.\.\/\.\.\/\.\.\/etc\/passwd"/,
  },
  { name: "an id ../x", frame: () => encodeHook(good({ id: "../x" })), reason: /id "\.\.\/x" is not a lowercase ULID/ },
  { name: "an uppercase id", frame: () => encodeHook(good({ id: newId().toUpperCase() })), reason: /is not a lowercase ULID/ },
  { name: "created_at 1e300", frame: () => rawFrame({ ...wire(good()), created_at: 1e300 }), reason: /created_at 1e\+300 is not a time/ },
  { name: "created_at in 1970", frame: () => encodeHook(good({ createdAt: 0 })), reason: /created_at 0 is not a time/ },
  { name: "a method with CR LF", frame: () => encodeHook(good({ method: "POST\r\nX-Injected: 1" })), reason: /the method is not an HTTP token/ },
  {
    name: "a header name with CR LF",
    frame: () => encodeHook(good({ headers: { "x-a\r\nx-injected": "1" } })),
    reason: /header name "x-a\\r\\nx-injected" is not an HTTP token/,
  },
  {
    name: "a header value with CR LF",
    frame: () => encodeHook(good({ headers: { "x-a": "1\r\nx-b: 2" } })),
    reason: /header x-a: the value holds a control character/,
  },
  { name: "20,000 headers", frame: () => encodeHook(good({ headers: manyHeaders })), reason: /20000 headers \(at most 200\)/ },
  {
    name: "a 60 MB body when hello said max_body 1024",
    frame: () => encodeHook(good({ body: new Uint8Array(60 * 1024 * 1024) })),
    reason: /the body is 62914560 bytes, larger than 1024/,
    maxBody: 1024,
  },
  { name: "a query with CR LF", frame: () => encodeHook(good({ query: "channel=stripe\r\nx" })), reason: /the query holds a character/ },
  { name: "an ip with an escape", frame: () => encodeHook(good({ ip: "\u001b[2J" })), reason: /ip is not an address/ },
  { name: "a header that is not JSON", frame: () => new Uint8Array([0, 0, 0, 2, 0x7b, 0x7b]), reason: /the frame's header is not JSON/ },
  { name: "a hook before hello", frame: () => encodeHook(good()), reason: /a hook before hello/, noHello: true },
];

/**
 * The laptop: a whole Mailroom in this process (bodies up to 64 KB) whose relay client dials the
 * fake upstream on `port` for channel stripe; what it logs is kept in `logged`.
 */
function startLaptop(port: number | undefined, retryDelay?: (failures: number) => number) {
  const logged: string[] = [];
  const log: Log = { info: () => {}, warn: (m) => void logged.push(m), error: (m) => void logged.push(m) };
  const laptop = createTestApp({ hooks: { max_body: "64KB" } });
  cleanup.push(laptop.close);
  const client = startRelayClient({
    target: { url: `http://127.0.0.1:${port}`, channel: "stripe", token: "mr_test" },
    identity: { listener: "laptop-test-1", host: "ada-laptop", startedAt: 1 },
    writer: laptop.writer,
    stored: async (id) => (await laptop.storage.hooks.getHookSummary(id)) !== undefined,
    maxBody: 64 * 1024,
    clock: systemClock,
    log,
    ...(retryDelay ? { retryDelay } : {}),
  });
  cleanup.push(() => client.stop());
  return { laptop, client, logged };
}

test("every hostile frame is refused: nothing stored or acknowledged, the reason logged, the connection dropped; a good hook after reconnecting is stored", async () => {
  type Conn = { acks: string[]; closed?: number };
  const conns: Conn[] = [];
  const finalHook = good({ eventType: "invoice.paid\u001b[31m\u202e" });
  const upstream = Bun.serve<{ n: number }>({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req, server) {
      if (req.headers.get("upgrade") === "websocket") return server.upgrade(req, { data: { n: 0 } }) ? undefined : new Response("no", { status: 400 });
      return Response.json({ channel: "stripe", waiting: 1, max_body: 1 << 20 });
    },
    websocket: {
      open(ws: ServerWebSocket<{ n: number }>) {
        ws.data.n = conns.push({ acks: [] }) - 1;
        const hostile = HOSTILE[ws.data.n];
        if (!hostile?.noHello) ws.send(JSON.stringify({ type: "hello", waiting: 1, channel: "stripe", max_body: hostile?.maxBody ?? 1 << 20 }));
        ws.send(hostile ? hostile.frame() : encodeHook(finalHook));
      },
      message(ws, text) {
        const m = JSON.parse(String(text));
        if (m.type === "ack") conns[ws.data.n]!.acks.push(...m.ids);
      },
      close(ws, code) {
        conns[ws.data.n]!.closed = code;
      },
    },
  });
  cleanup.push(() => upstream.stop(true));

  /** The failures in a row the laptop counted before each reconnection (its backoff grows with them). */
  const waits: number[] = [];
  const { laptop, logged } = startLaptop(upstream.port, (failures) => (waits.push(failures), 0));

  await eventually(async () => conns[HOSTILE.length]?.acks.includes(finalHook.id) ?? false, 60_000, "the good hook acknowledged after the hostile ones");
  HOSTILE.forEach((hostile, i) => {
    // Refused: never acknowledged, the connection closed by the laptop (policy violation), the reason logged.
    expect([hostile.name, conns[i]!.acks, conns[i]!.closed]).toEqual([hostile.name, [], 1008]);
    const line = logged.find((l) => l.startsWith("relay: refused a frame from upstream") && hostile.reason.test(l));
    expect([hostile.name, line]).toEqual([hostile.name, expect.any(String)]);
  });
  // A refused frame is a failed connection: the backoff grows (the same frame would come first again).
  expect(waits).toEqual(HOSTILE.map((_, i) => i));
  // Nothing of upstream's words reaches the terminal raw.
  for (const line of logged) expect(line).not.toMatch(/[\r\n\u001b]/);

  const channels = await laptop.call("GET", "/v1/channels");
  expect(channels.status).toBe(200);
  expect((channels.json as { name: string }[]).map((c) => c.name)).toEqual(["stripe"]);
  const summary = await laptop.call("GET", "/v1/hooks?channel=stripe&fields=summary&limit=100");
  expect(summary.status).toBe(200);
  expect((summary.json as { id: string }[]).map((h) => h.id)).toEqual([finalHook.id]);
  const stored = await laptop.call("GET", `/v1/hooks/${finalHook.id}`);
  expect(stored.status).toBe(200);
  // The event type is cleaned as catching cleans it.
  expect(stored.json).toMatchObject({ channel: "stripe", method: "POST" });
  const listed = await laptop.call("GET", "/v1/hooks?channel=stripe&fields=summary");
  expect((listed.json as { event_type?: string }[])[0]?.event_type).toBe("invoice.paid[31m");
}, 90_000);

test("a well-formed hook over the laptop's own max_body (within upstream's) is not stored and not acknowledged: a nack says why, and the hooks after it flow", async () => {
  const acks: string[] = [];
  const nacks: { type: string; id: string; error: string }[] = [];
  const big = good({ body: new Uint8Array(64 * 1024 + 1) });
  const small = good();
  const upstream = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req, server) {
      if (req.headers.get("upgrade") === "websocket") return server.upgrade(req) ? undefined : new Response("no", { status: 400 });
      return Response.json({ channel: "stripe", waiting: 2, max_body: 1 << 20 });
    },
    websocket: {
      open(ws) {
        ws.send(JSON.stringify({ type: "hello", waiting: 2, channel: "stripe", max_body: 1 << 20 }));
        ws.send(encodeHook(big));
        ws.send(encodeHook(small));
      },
      message(_ws, text) {
        const m = JSON.parse(String(text));
        if (m.type === "ack") acks.push(...m.ids);
        if (m.type === "nack") nacks.push(m);
      },
    },
  });
  cleanup.push(() => upstream.stop(true));
  const { laptop, client, logged } = startLaptop(upstream.port);

  await eventually(async () => acks.includes(small.id), 10_000, "the small hook acknowledged");
  const why = "the body is 65537 bytes, larger than this Mailroom's [hooks] max_body (65536)";
  expect(nacks).toEqual([{ type: "nack", id: big.id, error: why }]);
  expect(acks).toEqual([small.id]);
  expect(client.state()).toMatchObject({ connected: true });
  expect(logged).toContain(
    "relay: upstream takes bodies up to 1048576 bytes, this Mailroom up to 65536: a larger hook would be refused here; raise [hooks] max_body",
  );
  expect(logged).toContain(`relay: not storing hook ${big.id}: ${why}`);
  expect((await laptop.call("GET", `/v1/hooks/${big.id}`)).status).toBe(404);
});
